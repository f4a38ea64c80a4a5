/**
 * The `compliance` command: a router from the command's name to a command module (one file per
 * command in cli/commands). Global options may stand anywhere on the line (`compliance --json ping`);
 * `compliance help <command>` is `compliance <command> --help`. Errors become documented exit codes:
 * 0 ok, 1 gate failed, 2 usage or configuration, 3 service/auth/billing.
 */
import { COMMANDS, GROUPS } from './commands/index.js';
import { EXIT, EXIT_CODES_HELP } from './lib/exitCodes.js';
import { fitHelp, Output, printText } from './lib/output.js';
import { didYouMean } from './lib/suggest.js';

export type { Command } from './lib/command.js';

// The package version, written in by the build (scripts/build.mjs) from the root package.json.
declare const __CLI_VERSION__: string | undefined;
const VERSION = typeof __CLI_VERSION__ === 'string' ? __CLI_VERSION__ : '0.0.0-dev';

/** Options that may come before the command's name and take a value: the value is not the command. */
const VALUE_OPTIONS = new Set(['--api-key', '--base-url', '--cwd', '-C', '--config']);

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length), 'help'.length);
  const groups = Object.entries(GROUPS).flatMap(([group, title]) => [
    `${title}:`,
    ...Object.entries(COMMANDS).filter(([, command]) => command.group === group).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    ...(group === 'tools' ? [`  ${'help'.padEnd(width)}  help <command>: a command's options and examples (as <command> --help)`] : []),
    '',
  ]);
  return [
    'Usage: compliance <command> [subcommand] [options]',
    '',
    'Automates the compliance engine API: keep a repo\'s policies in the library, map them against frameworks, gate CI on',
    'coverage, raise gaps as issues, regenerate drifted documents.',
    '',
    ...groups,
    'Examples:',
    '  compliance review --dry-run                      # what a review of this repository would do and cost',
    '  compliance map policies/access.md --framework soc-2',
    '  compliance library search "encryption at rest" --limit 5',
    '',
    'Global options, anywhere on the line: --json (one JSON document on stdout), --no-color, -h/--help, -v/--version.',
    'Connection: COMPLIANCE_API_KEY and COMPLIANCE_BASE_URL (or --api-key/--base-url). With neither set, commands run',
    'against an embedded sandbox (nothing is charged).',
    '',
    EXIT_CODES_HELP,
    '',
    'Run `compliance help <command>` for the options and examples of a command; `compliance completion --help` for Tab completion.',
  ].join('\n');
}

/** The command's name, and its arguments with any options given before the name moved after it. */
function route(argv: readonly string[]): { name: string | undefined; rest: string[] } {
  const before: string[] = [];
  let i = 0;
  for (; i < argv.length && argv[i]!.startsWith('-') && argv[i] !== '-'; i++) {
    before.push(argv[i]!);
    if (VALUE_OPTIONS.has(argv[i]!) && i + 1 < argv.length) before.push(argv[++i]!);
  }
  return { name: argv[i], rest: [...argv.slice(i + 1), ...before] };
}

/** The known command `name`, or a usage error naming the closest ones. */
function unknownCommand(out: Output, json: boolean, name: string): number {
  // The closest commands, not the whole help: a typo should cost one line to fix.
  const suggestion = didYouMean(name, [...Object.keys(COMMANDS), 'help'], (command) => `compliance ${command}`);
  out.error(`unknown command ${JSON.stringify(name)}.${suggestion ? ` ${suggestion}` : ''}`);
  out.notice('  Run `compliance --help` for the list of commands.');
  if (json) out.printJson({ error: { code: 'usage', message: `unknown command ${JSON.stringify(name)}`, hint: suggestion || null, details: [], exitCode: EXIT.usage } });
  return EXIT.usage;
}

async function main(argv: string[]): Promise<number> {
  let { name, rest } = route(argv);
  const json = argv.includes('--json');
  const out = new Output({ json, noColor: argv.includes('--no-color') });
  if (name === 'help' && rest[0] !== undefined && !rest[0].startsWith('-')) {
    // `help <command> [subcommand]`: that command's own help.
    name = rest[0];
    rest = ['--help'];
  }
  if (name === undefined || name === 'help') {
    if (rest.includes('--version') || rest.includes('-v')) {
      printText('stdout', `${VERSION}\n`);
      return EXIT.ok;
    }
    printText('stdout', `${fitHelp(usage())}\n`);
    return name === undefined && !rest.includes('--help') && !rest.includes('-h') ? EXIT.usage : EXIT.ok;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!entry) return unknownCommand(out, json, name);
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
