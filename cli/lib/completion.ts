/**
 * Shell completion scripts for bash, zsh and fish, written from what the CLI knows of itself (the
 * commands, their subcommands and options): static scripts, so a Tab costs no Node start. Each
 * completes the command, then its subcommand, then its options when the word starts with `-`, and
 * otherwise file names (the FILE arguments of map, library ingest, …); a value-taking option's
 * value completes as a file name.
 */

export interface CompletedOption {
  /** `--name` */
  long: string;
  /** `-x` */
  short?: string;
  takesValue: boolean;
  description: string;
}

interface CompletedCommand {
  name: string;
  summary: string;
  /** Its first argument's choices: subcommands, operation ids, shells, command names. */
  choices: readonly string[];
  options: readonly CompletedOption[];
}

export interface CompletionSpec {
  commands: readonly CompletedCommand[];
  /** Options before the command's name (--json, --help, --version, …). */
  global: readonly CompletedOption[];
}

export type Shell = 'bash' | 'zsh' | 'fish';

/** Every option that takes a value, as a shell pattern `--a|--b|-C`. */
function valueOptions(spec: CompletionSpec): string {
  const names = new Set(spec.commands.flatMap((command) => command.options).filter((option) => option.takesValue).flatMap((option) => [option.long, ...(option.short ? [option.short] : [])]));
  return [...names].sort().join('|');
}

const flagsOf = (options: readonly CompletedOption[]) => options.flatMap((option) => [option.long, ...(option.short ? [option.short] : [])]).join(' ');
const single = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
/** A description short enough for a completion menu: its first clause. */
const brief = (text: string) => {
  const first = text.split(/[;(]|: /)[0]!.trim();
  return first.length > 70 ? `${first.slice(0, first.lastIndexOf(' ', 69))}…` : first;
};

function bash(spec: CompletionSpec): string {
  const values = valueOptions(spec);
  const cases = spec.commands.map((command) => `      ${command.name}) choices=${single(command.choices.join(' '))}; flags=${single(`${flagsOf(command.options)} ${flagsOf(spec.global)}`)} ;;`);
  return `# bash completion for compliance (written by \`compliance completion bash\`)
_compliance() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} command= argument= i word
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    [[ $word == -* ]] && continue
    case \${COMP_WORDS[i-1]} in ${values}) continue ;; esac
    if [[ -z $command ]]; then command=$word; elif [[ -z $argument ]]; then argument=$word; fi
  done
  case $prev in ${values}) COMPREPLY=($(compgen -f -- "$cur")); return ;; esac
  local choices= flags=${single(flagsOf(spec.global))}
  if [[ -z $command ]]; then
    choices=${single(spec.commands.map((command) => command.name).join(' '))}
  else
    case $command in
${cases.join('\n')}
      *) return ;;
    esac
    [[ -n $argument ]] && choices=
  fi
  if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [[ -n $choices ]]; then COMPREPLY=($(compgen -W "$choices" -- "$cur"))
  fi
}
complete -o default -o bashdefault -F _compliance compliance
`;
}

function zsh(spec: CompletionSpec): string {
  const values = valueOptions(spec);
  const cases = spec.commands.map((command) => `    ${command.name}) choices=(${command.choices.map(single).join(' ')}); flags=(${[...command.options, ...spec.global].map((option) => single(`${option.long}:${brief(option.description)}`)).join(' ')}) ;;`);
  return `#compdef compliance
# zsh completion for compliance (written by \`compliance completion zsh\`)
_compliance() {
  local command= argument= i
  local -a commands choices flags
  for ((i = 2; i < CURRENT; i++)); do
    [[ \${words[i]} == -* ]] && continue
    [[ \${words[i-1]} == (${values}) ]] && continue
    if [[ -z $command ]]; then command=\${words[i]}; elif [[ -z $argument ]]; then argument=\${words[i]}; fi
  done
  if [[ \${words[CURRENT-1]} == (${values}) ]]; then _files; return; fi
  if [[ -z $command ]]; then
    commands=(${spec.commands.map((command) => single(`${command.name}:${brief(command.summary)}`)).join(' ')})
    flags=(${spec.global.map((option) => single(`${option.long}:${brief(option.description)}`)).join(' ')})
    if [[ $PREFIX == -* ]]; then _describe -t options 'option' flags; else _describe -t commands 'compliance command' commands; fi
    return
  fi
  case $command in
${cases.join('\n')}
    *) return 1 ;;
  esac
  if [[ $PREFIX == -* ]]; then _describe -t options 'option' flags
  elif [[ -z $argument && \${#choices} -gt 0 ]]; then compadd -a choices
  else _files; fi
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then _compliance "$@"; else compdef _compliance compliance; fi
`;
}

function fish(spec: CompletionSpec): string {
  const names = spec.commands.map((command) => command.name).join(' ');
  const lines = [
    '# fish completion for compliance (written by `compliance completion fish`)',
    'complete -c compliance -e',
    ...spec.global.map((option) => `complete -c compliance -l ${option.long.slice(2)}${option.short ? ` -s ${option.short.slice(1)}` : ''} -d ${single(brief(option.description))}`),
    ...spec.commands.map((command) => `complete -c compliance -n ${single(`not __fish_seen_subcommand_from ${names}`)} -f -a ${command.name} -d ${single(brief(command.summary))}`),
    ...spec.commands.flatMap((command) => [
      ...(command.choices.length ? [`complete -c compliance -n ${single(`__fish_seen_subcommand_from ${command.name}; and not __fish_seen_subcommand_from ${command.choices.join(' ')}`)} -f -a ${single(command.choices.join(' '))}`] : []),
      ...command.options.map((option) => `complete -c compliance -n ${single(`__fish_seen_subcommand_from ${command.name}`)} -l ${option.long.slice(2)}${option.short ? ` -s ${option.short.slice(1)}` : ''}${option.takesValue ? ' -r' : ''} -d ${single(brief(option.description))}`),
    ]),
  ];
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: Shell, spec: CompletionSpec): string {
  return { bash, zsh, fish }[shell](spec);
}
