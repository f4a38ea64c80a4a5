/**
 * The `compliance` command: a router from the first argument to a command module (one file per
 * command in cli/commands). Errors become documented exit codes: 0 ok, 1 gate failed,
 * 2 usage or configuration, 3 service/auth/billing.
 */
import { autoTopUpCommand } from './commands/autoTopUp.js';
import { billingCommand } from './commands/billing.js';
import { calendarCommand } from './commands/calendar.js';
import { callCommand } from './commands/call.js';
import { checkoutCommand } from './commands/checkout.js';
import { configCommand } from './commands/config.js';
import { downloadCommand } from './commands/download.js';
import { frameworksCommand } from './commands/frameworks.js';
import { gapsCommand } from './commands/gaps.js';
import { generateCommand } from './commands/generate.js';
import { initCommand } from './commands/init.js';
import { jobsCommand } from './commands/jobs.js';
import { libraryCommand } from './commands/library.js';
import { mapCommand } from './commands/map.js';
import { pingCommand } from './commands/ping.js';
import { reviewCommand } from './commands/review.js';
import { sandboxCommand } from './commands/sandbox.js';
import { suggestCommand } from './commands/suggest.js';
import { syncCommand } from './commands/sync.js';
import { usageCommand } from './commands/usage.js';
import type { Command } from './lib/command.js';
import { EXIT, EXIT_CODES_HELP, describeError } from './lib/errors.js';
import { Output } from './lib/output.js';

export type { Command } from './lib/command.js';

const COMMANDS: Record<string, Command> = {
  review: reviewCommand,
  sync: syncCommand,
  map: mapCommand,
  gaps: gapsCommand,
  generate: generateCommand,
  suggest: suggestCommand,
  frameworks: frameworksCommand,
  library: libraryCommand,
  jobs: jobsCommand,
  download: downloadCommand,
  billing: billingCommand,
  checkout: checkoutCommand,
  'auto-topup': autoTopUpCommand,
  calendar: calendarCommand,
  usage: usageCommand,
  ping: pingCommand,
  call: callCommand,
  sandbox: sandboxCommand,
  init: initCommand,
  config: configCommand,
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    'Usage: compliance <command> [options]',
    '',
    'Automates the compliance engine API: keep a repo\'s policies in the library, map them against frameworks, gate CI on',
    'coverage, raise gaps as issues, regenerate drifted documents.',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    '',
    'Connection: COMPLIANCE_API_KEY and COMPLIANCE_BASE_URL (or --api-key/--base-url). With neither set, commands run',
    'against an embedded sandbox (nothing is charged). Every command takes --json for machine output and --help.',
    '',
    EXIT_CODES_HELP,
    '',
    'Run `compliance <command> --help` for the options and examples of a command.',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const json = rest.includes('--json');
  const out = new Output({ json, noColor: rest.includes('--no-color') });
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${process.env.COMPLIANCE_CLI_VERSION ?? '0.1.0'}\n`);
    return EXIT.ok;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    out.error(`unknown command ${JSON.stringify(name)}`);
    process.stderr.write(`\n${usage()}\n`);
    return EXIT.usage;
  }
  try {
    return await command.run(rest, out);
  } catch (error) {
    out.done();
    const described = describeError(error);
    out.error(`${name}: ${described.message}`);
    for (const line of described.details) out.notice(`  ${line}`);
    if (described.hint) out.notice(`  hint: ${described.hint}`);
    if (json) out.printJson({ error: { code: described.code, message: described.message, hint: described.hint ?? null, details: described.details, exitCode: described.exitCode } });
    return described.exitCode;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`compliance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT.service;
  },
);
