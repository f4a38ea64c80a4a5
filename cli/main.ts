/**
 * The `compliance` command: a small router from the first argument to a command module. Each
 * command exports `{ summary, run(argv) }` and returns the exit code; add new ones to COMMANDS.
 */
import { sandboxCommand } from './commands/sandbox.js';

export interface Command {
  /** One line for `compliance --help`. */
  summary: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(argv: string[]): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  sandbox: sandboxCommand,
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    'Usage: compliance <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    '',
    'Run `compliance <command> --help` for the options of a command.',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`compliance: unknown command ${JSON.stringify(name)}\n\n${usage()}\n`);
    return 2;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`compliance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
