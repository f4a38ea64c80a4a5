#!/usr/bin/env bash
# Installs the Debian packages some suites need beyond Node, when missing: PostgreSQL and Redis
# (queue mode), Chromium (the editor), zsh and fish (the shell completion tests). `npm test` names this command when it skips those suites;
# .ci/run runs it (in CI nothing may be skipped). Prints what it installed and how long it took.
set -euo pipefail
missing=()
compgen -G '/usr/lib/postgresql/*/bin/initdb' > /dev/null || missing+=(postgresql)
command -v redis-server > /dev/null || missing+=(redis-server)
command -v chromium > /dev/null || missing+=(chromium)
command -v zsh > /dev/null || missing+=(zsh)
command -v fish > /dev/null || missing+=(fish)
if [ ${#missing[@]} -eq 0 ]; then
  echo "system-packages: postgresql, redis-server, chromium, zsh and fish already installed"
  exit 0
fi
started=$SECONDS
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
echo "system-packages: installed ${missing[*]} in $((SECONDS - started))s"
