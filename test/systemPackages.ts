/**
 * The Debian packages some suites need beyond Node (Chromium for the real-n8n editor suite, PostgreSQL and
 * Redis for queue mode, zsh and fish for the shell completion tests): where they are, and the one place
 * that decides what `npm test` skips without them. The global setup says it once, with the command that installs them; with CI=true nothing is
 * skipped (the suites fail instead: .ci/run installs the packages).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const INSTALL_SYSTEM_PACKAGES = 'bash scripts/system-packages.sh';

export function chromiumPath(): string | undefined {
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
}

/** The newest /usr/lib/postgresql/<major>/bin with initdb and postgres, or undefined. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
  return majors.map((major) => join(root, major, 'bin')).find((bin) => existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres')));
}

export function redisBin(): string | undefined {
  return ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) => existsSync(path));
}

const onPath = (name: string) => ['/usr/bin', '/bin', '/usr/local/bin'].some((dir) => existsSync(join(dir, name)));

const SUITES = {
  editor: () => (chromiumPath() ? [] : ['chromium']),
  'queue-mode': () => [...(postgresBin() ? [] : ['postgresql']), ...(redisBin() ? [] : ['redis-server'])],
  'shell-completion': () => ['zsh', 'fish'].filter((shell) => !onPath(shell)),
} satisfies Record<string, () => string[]>;
const REAL_N8N: ReadonlySet<RealSuite> = new Set(['editor', 'queue-mode']);
export type RealSuite = keyof typeof SUITES;

/** The packages a suite lacks on this machine. */
export function missingFor(suite: RealSuite): string[] {
  return SUITES[suite]();
}

/** Why the suite is skipped, or '' when it runs (always runs under CI=true: it fails there instead). */
export function skipReason(suite: RealSuite): string {
  if (process.env.COMPLIANCE_SKIP_REAL_N8N === '1' && REAL_N8N.has(suite)) return 'COMPLIANCE_SKIP_REAL_N8N=1';
  const missing = missingFor(suite);
  return missing.length && process.env.CI !== 'true' ? `needs ${missing.join(', ')}` : '';
}

/** One line naming every suite this run skips for a missing package and the command that installs them, or undefined. */
export function skipSummary(): string | undefined {
  if (process.env.CI === 'true') return undefined;
  const skipped = (Object.keys(SUITES) as RealSuite[]).flatMap((suite) => (skipReason(suite) && !skipReason(suite).startsWith('COMPLIANCE_SKIP') ? [`the ${suite} suite (${skipReason(suite)})`] : []));
  return skipped.length ? `Skipping ${skipped.join(' and ')}: \`${INSTALL_SYSTEM_PACKAGES}\` installs what they need.` : undefined;
}
