/**
 * The connection a command works through: COMPLIANCE_API_KEY / COMPLIANCE_BASE_URL (or the
 * --api-key / --base-url flags), or, with neither set, a sandbox embedded in this process, whose
 * state (library, jobs) is kept between commands in the per-user data directory unless --ephemeral.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ComplianceClient, clientFromEnv } from '../../api/node/index.js';
import { retryNoticeText } from '../../api/retry.js';
import type { KeyMode } from '../../api/schemas/common.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { readCiContext } from '../../review/ciContext.js';
import { booleanFlag, stringFlag, type Parsed } from './args.js';
import { UsageError } from './errors.js';
import type { Output } from './output.js';
import { maskKey, registerSecret } from './secrets.js';

export interface Session {
  client: ComplianceClient;
  /** The embedded sandbox, when no service was configured. */
  embedded: RunningSandbox | undefined;
  /** The key's mode, from one ping (cached). */
  mode(): Promise<KeyMode>;
  close(): Promise<void>;
}

const USER_AGENT = 'compliance-cli';
/** Retry waits from this long are said on stderr. */
const RETRY_NOTICE_MS = 2_000;

/**
 * Where the embedded sandbox keeps its state: COMPLIANCE_DATA_DIR, else the platform's per-user data
 * directory (XDG_DATA_HOME or ~/.local/share, ~/Library/Application Support, %LOCALAPPDATA%);
 * undefined when the environment names no home, and the state is then discarded on exit.
 */
export function embeddedDataDir(env: Record<string, string | undefined> = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  const explicit = env.COMPLIANCE_DATA_DIR?.trim();
  if (explicit) return resolve(explicit);
  const home = env.HOME?.trim();
  const base = platform === 'win32'
    ? env.LOCALAPPDATA?.trim()
    : platform === 'darwin'
      ? home && join(home, 'Library', 'Application Support')
      : env.XDG_DATA_HOME?.trim() || (home && join(home, '.local', 'share'));
  return base ? join(base, 'compliance-engine-cli', 'sandbox') : undefined;
}

/** The embedded sandbox's own key in `dir`, made on first use (owner-only); `created` tells the first use. */
function embeddedKey(dir: string, newKey: () => string): { key: string; created: boolean } {
  const file = join(dir, 'embedded-key');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${newKey()}\n`, { flag: 'wx', mode: 0o600 });
    return { key: readFileSync(file, 'utf8').trim(), created: true };
  } catch (error) {
    // Another command made it first (or an earlier run did): use that one.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { key: readFileSync(file, 'utf8').trim(), created: false };
  }
}

/** Whether a command would run against the embedded sandbox: no key and no base URL, from flags or the environment. */
export function usesEmbeddedSandbox(parsed: Parsed, env: Record<string, string | undefined> = process.env): boolean {
  return !(stringFlag(parsed.values, 'api-key') ?? env.COMPLIANCE_API_KEY?.trim()) && !(stringFlag(parsed.values, 'base-url') ?? env.COMPLIANCE_BASE_URL?.trim());
}

export async function openSession(parsed: Parsed, out: Output, env: Record<string, string | undefined> = process.env): Promise<Session> {
  const flagKey = stringFlag(parsed.values, 'api-key');
  const flagUrl = stringFlag(parsed.values, 'base-url');
  registerSecret(flagKey);
  registerSecret(env.COMPLIANCE_API_KEY?.trim());
  if (flagKey) out.warn('--api-key puts the key in your shell history and process list; prefer COMPLIANCE_API_KEY.');

  const key = flagKey ?? env.COMPLIANCE_API_KEY?.trim();
  checkKeyShape(key, flagKey ? '--api-key' : 'COMPLIANCE_API_KEY');
  const url = flagUrl ?? env.COMPLIANCE_BASE_URL?.trim();
  let embedded: RunningSandbox | undefined;
  let client: ComplianceClient;
  if (!key && !url) {
    refuseEmbeddedSandboxInCi(parsed, env);
    // Loaded only here: the sandbox (and the PDF reader behind it) is most of the CLI's code.
    const { startSandbox, issueKey } = await import('../../sandbox/index.js');
    const dataDir = booleanFlag(parsed.values, 'ephemeral') ? undefined : embeddedDataDir(env);
    const kept = dataDir === undefined ? undefined : embeddedKey(dataDir, () => issueKey('sandbox'));
    embedded = await startSandbox({ port: 0, jobSeconds: 0, ...(dataDir && kept ? { dataDir, keys: [kept.key] } : {}) });
    const sandboxKey = embedded.keys[0]?.key as string;
    registerSecret(sandboxKey);
    client = new ComplianceClient({ apiKey: sandboxKey, baseUrl: embedded.baseUrl, userAgent: USER_AGENT });
    // The directory is named once, when it is first used; later runs say only that state is kept.
    const state = dataDir === undefined
      ? 'state is discarded on exit'
      : kept?.created ? `its state is kept between commands in ${dataDir}; --ephemeral keeps nothing, COMPLIANCE_DATA_DIR moves it` : 'state kept between commands';
    out.notice(`No COMPLIANCE_API_KEY or COMPLIANCE_BASE_URL: using an embedded sandbox (sandbox key, nothing is charged; ${state}).`);
  } else {
    client = clientFromEnv(env, {
      userAgent: USER_AGENT,
      ...(flagKey ? { apiKey: flagKey } : {}),
      ...(flagUrl ? { baseUrl: flagUrl } : {}),
      // A pause of seconds is said on stderr; a quick backoff is not worth a line.
      onRetry: (notice) => {
        if (notice.delayMs >= RETRY_NOTICE_MS) out.notice(retryNoticeText(notice));
      },
    });
  }
  let mode: Promise<KeyMode> | undefined;
  return {
    client,
    embedded,
    mode() {
      mode ??= client.ping().then((answer) => answer.mode);
      return mode;
    },
    async close() {
      await embedded?.close();
    },
  };
}

/** `--sandbox` or COMPLIANCE_SANDBOX=1: the embedded sandbox was asked for by name. */
function sandboxAskedFor(parsed: Parsed, env: Record<string, string | undefined>): boolean {
  return booleanFlag(parsed.values, 'sandbox') || ['1', 'true', 'yes'].includes(env.COMPLIANCE_SANDBOX?.trim().toLowerCase() ?? '');
}

/**
 * In CI a missing key is a refusal, never a silent run against the embedded sandbox (whose results
 * are samples): a pipeline that lost its key must not pass. Exit 2, naming the fix; the sandbox
 * runs in CI only when asked for by name.
 */
function refuseEmbeddedSandboxInCi(parsed: Parsed, env: Record<string, string | undefined>): void {
  const context = readCiContext(env, undefined);
  if (!context.ci || sandboxAskedFor(parsed, env)) return;
  const where = context.forge === 'github' ? 'GitHub Actions' : context.forge === 'gitlab' ? 'GitLab CI' : 'CI (CI=true)';
  const gitlab = context.forge === 'gitlab' ? ' GitLab gives merge request pipelines no protected variables: mark the key masked, not protected (or protect the branches merge requests come from).' : '';
  throw new UsageError(
    `no COMPLIANCE_API_KEY or COMPLIANCE_BASE_URL in ${where}: refusing to run against the embedded sandbox, whose results are samples`,
    `Set COMPLIANCE_API_KEY and COMPLIANCE_BASE_URL for this job.${gitlab} To run against the embedded sandbox on purpose, pass --sandbox (or set COMPLIANCE_SANDBOX=1).`,
  );
}

/** A key copied with its header (`Bearer csk_…`, `Authorization: Bearer …`) gets its own fix, not the generic "no spaces". */
export function checkKeyShape(key: string | undefined, source: string): void {
  if (key && /^(authorization:\s*)?bearer(\s|$)/i.test(key)) {
    throw new UsageError(`${source} starts with "Bearer": give the key alone`, `Set ${source === '--api-key' ? '--api-key' : 'COMPLIANCE_API_KEY'} to the key itself (csk_live_…); the CLI sends the Authorization: Bearer header.`);
  }
}

/** How the key is shown: masked, never whole. */
export function describeKey(env: Record<string, string | undefined>, flagKey: string | undefined): string | undefined {
  const key = flagKey ?? env.COMPLIANCE_API_KEY?.trim();
  return key ? maskKey(key) : undefined;
}

/** Opens a session, runs `work`, always closes it. */
export async function withSession<T>(parsed: Parsed, out: Output, work: (session: Session) => Promise<T>): Promise<T> {
  const session = await openSession(parsed, out);
  try {
    return await work(session);
  } finally {
    out.done();
    await session.close();
  }
}
