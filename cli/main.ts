/**
 * The `compliance` command: a router from the first argument to a command module (one file per
 * command in cli/commands). Errors become documented exit codes: 0 ok, 1 gate failed,
 * 2 usage or configuration, 3 service/auth/billing.
 */
import { COMMANDS } from './commands/index.js';
import { EXIT, EXIT_CODES_HELP } from './lib/exitCodes.js';
import { fitHelp, Output, printText } from './lib/output.js';
import { didYouMean } from './lib/suggest.js';

export type { Command } from './lib/command.js';

// The package version, written in by the build (scripts/build.mjs) from the root package.json.
declare const __CLI_VERSION__: string | undefined;
const VERSION = typeof __CLI_VERSION__ === 'string' ? __CLI_VERSION__ : '0.0.0-dev';

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
    printText('stdout', `${fitHelp(usage())}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    printText('stdout', `${VERSION}\n`);
    return EXIT.ok;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!entry) {
    // The closest commands, not the whole help: a typo should cost one line to fix.
    const suggestion = didYouMean(name, Object.keys(COMMANDS), (command) => `compliance ${command}`);
    out.error(`unknown command ${JSON.stringify(name)}.${suggestion ? ` ${suggestion}` : ''}`);
    out.notice('  Run `compliance --help` for the list of commands.');
    if (json) out.printJson({ error: { code: 'usage', message: `unknown command ${JSON.stringify(name)}`, hint: suggestion || null, details: [], exitCode: EXIT.usage } });
    return EXIT.usage;
  }
  try {
    const command = await entry.load();
    // A library's warning quotes repository text: escaped to one line, never raw on stderr.
    (await import('../review/node/processWarnings.js')).routeProcessWarnings((line) => out.warn(line));
    return await command.run(rest, out);
  } catch (error) {
    out.done();
    const { describeError } = await import('./lib/errors.js');
    const described = describeError(error);
    // One prefix: the message names its own context when it has one (`ping: could not connect…`).
    out.error(described.message);
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
    printText('stderr', `compliance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT.service;
  },
);
