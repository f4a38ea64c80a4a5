#!/usr/bin/env bash
# Fails when a committed lock is not what npm writes for it on a machine with an empty npm cache (a
# fresh CI runner, a new contributor): the contributor lock and the real suites' tool lock.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
for dir in . scripts/tools; do
  (cd "$dir" && npm_config_cache="$cache" npm install --package-lock-only --ignore-scripts --no-audit --no-fund --loglevel=error)
done
git diff --exit-code -- package-lock.json scripts/tools/package-lock.json
echo "check-locks: package-lock.json and scripts/tools/package-lock.json are what npm $(npm -v) writes from an empty cache"
