/**
 * `compliance sandbox`: runs the local sandbox server until SIGINT/SIGTERM. Prints the base URL and
 * each key with its mode (the user's own local keys: printing them here is the point), or one JSON
 * line with --json.
 */
import { parseArgs } from 'node:util';
import { parseKeySpec, startSandbox, type SandboxOptions } from '../../sandbox/index.js';
import type { Command } from '../lib/command.js';
import { cleanParseError } from '../lib/args.js';
import { UsageError } from '../lib/errors.js';
import { fitHelp, printText } from '../lib/output.js';

const HELP = `Usage: compliance sandbox [options]

Runs the local sandbox of the compliance API (every endpoint, sandbox and simulated live keys).

Options:
  --host HOST                 interface to listen on (default 127.0.0.1)
  --port PORT                 port; 0 picks a free one (default 4010)
  --data DIR                  persist state in DIR/sandbox.sqlite (default: in memory)
  --key KEY[:live[:BALANCE[:PLAN]]]
                              a key to accept, repeatable; live keys draw down BALANCE tokens
                              (PLAN api or platform); none: one sandbox key is generated
  --rate-limit RPM            requests per minute per key (default 600 sandbox, 60 live)
  --generations-per-day N     generation quota per key per day (default 200 sandbox, 20 live)
  --generations-per-30-days N generation quota per key per 30 days (default 2000 sandbox, 200 live)
  --job-seconds S             time from queued to completed; 0 completes at once (default 1)
  --faults                    honour the X-Sandbox-Fault request header (503, 500, 429, html502,
                              reset, reset-after, slow[:MS], job-fail)
  --json                      print one JSON line {baseUrl, keys, controlToken?} instead of text
                              (controlToken: set when --host is not a loopback address; the
                              /_sandbox/* control endpoints then require it)
  -h, --help                  show this help
`;

function number(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < 0) throw new UsageError(`--${name} must be a non-negative number (got ${JSON.stringify(value)})`, `For example --${name} ${name === 'port' ? '4010' : '60'}.`);
  if (name === 'port' && (!Number.isInteger(parsed) || parsed > 65_535)) throw new UsageError(`--port must be a whole number from 0 to 65535 (got ${JSON.stringify(value)})`, 'For example --port 4010, or --port 0 to pick a free port.');
  return parsed;
}

/** Each --key checked before anything starts: a wrong one is a usage error naming the part to fix, never the key. */
function checkKeys(specs: readonly string[]): void {
  for (const spec of specs) {
    try {
      parseKeySpec(spec);
    } catch (error) {
      throw new UsageError((error as Error).message, 'Write --key KEY[:live[:BALANCE[:PLAN]]], for example --key csk_live_mykey01:live:5000000:api (BALANCE in tokens, PLAN api or platform).');
    }
  }
}

const OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  data: { type: 'string' },
  key: { type: 'string', multiple: true },
  'rate-limit': { type: 'string' },
  'generations-per-day': { type: 'string' },
  'generations-per-30-days': { type: 'string' },
  'job-seconds': { type: 'string' },
  faults: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** node:util's parse errors as usage errors naming the flag (exit 2), never "this is a bug". */
function parseSandboxArgs(argv: string[]) {
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options: OPTIONS });
  } catch (error) {
    throw new UsageError(cleanParseError((error as Error).message, Object.keys(OPTIONS)), 'Run `compliance sandbox --help` for the options.');
  }
}

export const sandboxCommand: Command = {
  options: OPTIONS,
  async run(argv) {
    const { values } = parseSandboxArgs(argv);
    if (values.help) {
      printText('stdout', fitHelp(HELP));
      return 0;
    }
    if (values.key !== undefined) checkKeys(values.key);
    const options: SandboxOptions = {
      ...(values.host !== undefined ? { host: values.host } : {}),
      ...(values.data !== undefined ? { dataDir: values.data } : {}),
      ...(values.key !== undefined ? { keys: values.key } : {}),
      faults: values.faults ?? false,
    };
    const numeric: Array<[keyof SandboxOptions, string, string | undefined]> = [
      ['port', 'port', values.port],
      ['rateLimitPerMinute', 'rate-limit', values['rate-limit']],
      ['generationsPerDay', 'generations-per-day', values['generations-per-day']],
      ['generationsPer30Days', 'generations-per-30-days', values['generations-per-30-days']],
      ['jobSeconds', 'job-seconds', values['job-seconds']],
    ];
    for (const [option, flag, raw] of numeric) {
      const value = number(flag, raw);
      if (value !== undefined) Object.assign(options, { [option]: value });
    }

    const sandbox = await startSandbox(options);
    // Listen for signals before announcing: a supervisor may stop us as soon as it reads the lines.
    const stopped = new Promise<void>((resolve) => {
      // Started through `npx compliance sandbox … &`, our parent is npm's shell: `kill $!` ends npm but
      // no signal reaches us. Re-parented means whoever started us is gone, so stop instead of lingering.
      const parent = process.ppid;
      const orphaned = setInterval(() => process.ppid !== parent && stop(), 500).unref();
      const stop = () => {
        clearInterval(orphaned);
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void sandbox.close().then(resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    const keys = sandbox.keys.map(({ key, mode }) => ({ key, mode }));
    if (values.json) {
      printText('stdout', `${JSON.stringify({ baseUrl: sandbox.baseUrl, keys, ...(sandbox.controlToken ? { controlToken: sandbox.controlToken } : {}) })}\n`);
    } else {
      const lines = [`Sandbox listening at ${sandbox.baseUrl}`, ...keys.map(({ key, mode }) => `API key: ${key} (${mode})`)];
      if (options.dataDir) lines.push(`State persists in ${options.dataDir}`);
      if (sandbox.interruptedJobs > 0) lines.push(`${sandbox.interruptedJobs} job(s) in flight at the last stop were failed and refunded`);
      if (options.faults) lines.push('Fault injection is on (X-Sandbox-Fault)');
      // Not loopback: anyone who can reach the port could move the clock or read the outbox without it.
      if (sandbox.controlToken) lines.push(`Control token: ${sandbox.controlToken} (send as X-Sandbox-Token to ${sandbox.origin}/_sandbox/*)`);
      lines.push('Press Ctrl+C to stop.');
      printText('stdout', `${lines.join('\n')}\n`);
    }

    await stopped;
    return 0;
  },
};
