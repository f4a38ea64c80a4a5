// One line when the npm running a script is not the one package.json's devEngines pins (npm's own
// EBADDEVENGINES warning says the same in seven). A warning, not a refusal: another npm builds and
// tests alike, only the locks it would write differ; CI (.ci/run, through scripts/toolchain.sh) and
// the workflows install the pinned npm and refuse any other.
import { readFileSync } from 'node:fs';

const pinned = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).devEngines.packageManager.version;
const running = /\bnpm\/(\S+)/.exec(process.env.npm_config_user_agent ?? '')?.[1];
if (running !== undefined && running !== pinned) {
  console.error(`npm ${running} is running this, but the repository pins npm ${pinned} (package.json devEngines): \`. scripts/toolchain.sh\` puts it on PATH, or \`npm install -g npm@${pinned}\``);
}
