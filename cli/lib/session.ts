/**
 * The connection a command works through: COMPLIANCE_API_KEY / COMPLIANCE_BASE_URL (or the
 * --api-key / --base-url flags), or, with neither set, a sandbox embedded in this process.
 */
import { ComplianceClient, clientFromEnv } from '../../api/node/index.js';
import type { KeyMode } from '../../api/schemas/common.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { stringFlag, type Parsed } from './args.js';
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
    // Loaded only here: the sandbox (and the PDF reader behind it) is most of the CLI's code.
    const { startSandbox } = await import('../../sandbox/index.js');
    embedded = await startSandbox({ port: 0, jobSeconds: 0 });
    const sandboxKey = embedded.keys[0]?.key as string;
    registerSecret(sandboxKey);
    client = new ComplianceClient({ apiKey: sandboxKey, baseUrl: embedded.baseUrl, userAgent: USER_AGENT });
    out.notice('No COMPLIANCE_API_KEY or COMPLIANCE_BASE_URL: using an embedded sandbox (sandbox key, nothing is charged, state is discarded on exit).');
  } else {
    client = clientFromEnv(env, { userAgent: USER_AGENT, ...(flagKey ? { apiKey: flagKey } : {}), ...(flagUrl ? { baseUrl: flagUrl } : {}) });
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
