#!/usr/bin/env bash
# Installs (or reuses) the pinned real n8n used by the real-n8n test suites, outside the repo: `npm ci`
# from scripts/n8n/package-lock.json (every package pinned by version and integrity), no install
# scripts, then only the two native modules n8n needs are built.
# Prints the path of the n8n binary on stdout (everything else goes to stderr).
#   N8N_CACHE_DIR  where to install; default $HOME/.cache/n8n-<version>-<first 16 hex of the lock's sha256>
# Idempotent: a cache dir installed from the same lock whose n8n reports the pinned version is reused.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
N8N_VERSION=$(node -p "require('$HERE/package.json').dependencies.n8n")
LOCK_SHA=$(cat "$HERE/package.json" "$HERE/package-lock.json" | sha256sum | cut -c1-16)
DIR="${N8N_CACHE_DIR:-$HOME/.cache/n8n-$N8N_VERSION-$LOCK_SHA}"
BIN="$DIR/node_modules/.bin/n8n"

works() {
  [ -x "$BIN" ] && [ "$(cat "$DIR/.lock-sha" 2>/dev/null)" = "$LOCK_SHA" ] &&
    [ "$("$BIN" --version 2>/dev/null | tail -n 1 | tr -d '[:space:]')" = "$N8N_VERSION" ]
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

echo "n8n-install: installing n8n $N8N_VERSION into $DIR (once; several minutes)" >&2
rm -f "$DIR/.lock-sha"
cp "$HERE/package.json" "$HERE/package-lock.json" "$HERE/.npmrc" "$DIR/"
(
  cd "$DIR"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2
  # The known recipe: install scripts off, then build only the two native modules n8n needs.
  npm rebuild sqlite3 isolated-vm --ignore-scripts=false --loglevel=error >&2
)

if ! "$BIN" --version >/dev/null 2>&1 || [ "$("$BIN" --version 2>/dev/null | tail -n 1 | tr -d '[:space:]')" != "$N8N_VERSION" ]; then
  echo "n8n-install: $BIN does not report version $N8N_VERSION after installing" >&2
  exit 1
fi
echo "$LOCK_SHA" > "$DIR/.lock-sha"
echo "$BIN"
