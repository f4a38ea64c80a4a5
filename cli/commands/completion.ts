/** `compliance completion bash|zsh|fish`: prints the shell's completion script (cli/lib/completion.ts). */
import { operationIds } from '../../api/operations.js';
import { parseCommand, subcommandOf, type OptionSpecs } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { completionScript, type CompletedOption, type CompletionSpec, type Shell } from '../lib/completion.js';
import { EXIT } from '../lib/errors.js';
import { COMMANDS } from './index.js';

const OPTIONS = {} as const satisfies OptionSpecs;

/** The options every command takes, before or after its name. */
const GLOBAL: CompletedOption[] = [
  { long: '--json', takesValue: false, description: 'print one JSON document on stdout' },
  { long: '--no-color', takesValue: false, description: 'no colours' },
  { long: '--help', short: '-h', takesValue: false, description: 'show the help' },
  { long: '--version', short: '-v', takesValue: false, description: 'print the version' },
];
const GLOBAL_NAMES = new Set(GLOBAL.map((option) => option.long));

async function completionSpec(): Promise<CompletionSpec> {
  const names = Object.keys(COMMANDS);
  const commands = await Promise.all(Object.entries(COMMANDS).map(async ([name, entry]) => {
    const { options } = await entry.load();
    const choices = name === 'call' ? operationIds : entry.subcommands ?? [];
    return {
      name, summary: entry.summary, choices,
      options: Object.entries(options)
        .map(([option, spec]): CompletedOption => ({ long: `--${option}`, ...(spec.short ? { short: `-${spec.short}` } : {}), takesValue: spec.type === 'string', description: spec.description ?? option }))
        .filter((option) => !GLOBAL_NAMES.has(option.long)),
    };
  }));
  return { commands: [...commands, { name: 'help', summary: 'the help of a command', choices: names, options: [] }], global: GLOBAL };
}

export const completionCommand: Command = {
  options: OPTIONS,
  async run(argv, out) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance completion bash|zsh|fish',
      description: 'Prints the completion script for a shell: commands, subcommands, options and file names complete with Tab.',
      notes: [
        'Install it once:',
        '  bash  echo \'source <(compliance completion bash)\' >> ~/.bashrc',
        '  zsh   compliance completion zsh > "${fpath[1]}/_compliance"   (then start a new shell)',
        '  fish  compliance completion fish > ~/.config/fish/completions/compliance.fish',
      ],
      examples: ['compliance completion bash > ~/.local/share/bash-completion/completions/compliance', 'source <(compliance completion zsh)'],
    }, { min: 1, max: 1, names: 'shell (bash, zsh or fish)' });
    if (!parsed) return EXIT.ok;
    const shell = subcommandOf('completion', parsed.positionals[0]) as Shell;
    out.data(completionScript(shell, await completionSpec()));
    return EXIT.ok;
  },
};
