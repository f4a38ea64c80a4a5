#!/usr/bin/env bash
# Installs (or reuses) the pinned real n8n used by the real-n8n test suite, outside the repo.
# Prints the path of the n8n binary on stdout (everything else goes to stderr).
#   N8N_CACHE_DIR  where to install; default $HOME/.cache/n8n-2.40.7
# Idempotent: a cache dir whose n8n reports the pinned version is reused as it is.
set -euo pipefail

N8N_VERSION=2.40.7
DIR="${N8N_CACHE_DIR:-$HOME/.cache/n8n-$N8N_VERSION}"
BIN="$DIR/node_modules/.bin/n8n"

works() {
  [ -x "$BIN" ] && [ "$("$BIN" --version 2>/dev/null | tail -n 1 | tr -d '[:space:]')" = "$N8N_VERSION" ]
}

if works; then
  echo "$BIN"
  exit 0
fi

if ! node -v | grep -qE '^v(2[4-9]|[3-9][0-9])\.'; then
  echo "n8n-install: n8n $N8N_VERSION needs Node.js 24 (found $(node -v))" >&2
  exit 1
fi

mkdir -p "$DIR"
# One installer at a time per cache dir (parallel test workers, several checkouts).
exec 9>"$DIR/.install.lock"
if command -v flock >/dev/null 2>&1; then flock 9; fi
if works; then
  echo "$BIN"
  exit 0
fi

echo "n8n-install: installing n8n $N8N_VERSION into $DIR (once; a few minutes)" >&2
# The known recipe: linkedom pinned (newer releases need a newer Node API), install scripts off,
# then build only the two native modules n8n needs.
cat >"$DIR/package.json" <<JSON
{ "name": "n8n-cache", "private": true, "dependencies": { "n8n": "$N8N_VERSION" }, "overrides": { "linkedom": "0.18.14" } }
JSON
(
  cd "$DIR"
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2
  npm rebuild sqlite3 isolated-vm --loglevel=error >&2
)

if ! works; then
  echo "n8n-install: $BIN does not report version $N8N_VERSION after installing" >&2
  exit 1
fi
echo "$BIN"
