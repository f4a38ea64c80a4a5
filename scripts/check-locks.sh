#!/usr/bin/env bash
# Fails when a committed lock is not what npm writes for it on a machine with an empty npm cache (a
# fresh CI runner, a new contributor): the contributor lock and the locks of the real suites' tools and n8n.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
for dir in . scripts/tools scripts/n8n; do
  (cd "$dir" && npm_config_cache="$cache" npm install --package-lock-only --ignore-scripts --no-audit --no-fund --loglevel=error)
done
locks=(package-lock.json scripts/tools/package-lock.json scripts/n8n/package-lock.json)
git diff --exit-code -- "${locks[@]}"
echo "check-locks: ${locks[*]} are what npm $(npm -v) writes from an empty cache"
