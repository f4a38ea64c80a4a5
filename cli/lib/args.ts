/**
 * Argument parsing on node:util parseArgs: every command declares its flags, usage and examples;
 * `--help` prints them; a wrong flag is a UsageError naming it and the fix (exit 2).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { COMMANDS } from '../commands/index.js';
import { UsageError, exitCodesHelp } from './errors.js';
import { fitHelp, printText } from './output.js';
import { didYouMean } from './suggest.js';

type OptionSpec = NonNullable<ParseArgsConfig['options']>[string] & { description: string; valueName?: string };
export type OptionSpecs = Record<string, OptionSpec>;

/** Flags every command accepts, before or after the command's name. */
const GLOBAL_OPTIONS = {
  json: { type: 'boolean', description: 'print one JSON document on stdout (shapes in the README)' },
  'no-color': { type: 'boolean', description: 'no colours (also: NO_COLOR set, or not a terminal)' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
} as const satisfies OptionSpecs;

/** Flags of commands that talk to the service. */
export const CONNECTION_OPTIONS = {
  'api-key': { type: 'string', valueName: 'KEY', description: 'API key (default: COMPLIANCE_API_KEY; a key on the command line lands in shell history)' },
  'base-url': { type: 'string', valueName: 'URL', description: 'service base URL (default: COMPLIANCE_BASE_URL); neither set: an embedded sandbox' },
  ephemeral: { type: 'boolean', description: 'embedded sandbox only: keep nothing after this command (default: its state is kept in the per-user data directory, or COMPLIANCE_DATA_DIR)' },
  sandbox: { type: 'boolean', description: 'without a key in CI, run against the embedded sandbox anyway (also COMPLIANCE_SANDBOX=1); without it CI refuses, exit 2' },
} as const satisfies OptionSpecs;

/** Flags of commands that read a repository's compliance.yml. */
export const REPO_OPTIONS = {
  cwd: { type: 'string', short: 'C', valueName: 'DIR', description: 'repository root (default: the current directory)' },
  config: { type: 'string', valueName: 'PATH', description: 'configuration file, a .yml or .yaml under the root, relative to it (default: compliance.yml)' },
} as const satisfies OptionSpecs;

interface CommandHelp {
  /** e.g. `compliance sync [options]` */
  usage: string;
  description: string;
  examples: readonly string[];
  /** Extra paragraphs (spending rules, output shape). */
  notes?: readonly string[];
  /** The command judges coverage: its help lists exit code 1 (gate failed). */
  gate?: boolean;
}

export function renderHelp(help: CommandHelp, options: OptionSpecs): string {
  const rows = Object.entries(options).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.type === 'string' ? ` ${spec.valueName ?? 'VALUE'}` : ''}`;
    return [flag, spec.description] as const;
  });
  const width = Math.min(34, Math.max(...rows.map(([flag]) => flag.length)));
  const lines = [`Usage: ${help.usage}`, '', help.description, '', 'Options:'];
  for (const [flag, description] of rows) {
    lines.push(flag.length > width ? `  ${flag}\n  ${' '.repeat(width)}  ${description}` : `  ${flag.padEnd(width)}  ${description}`);
  }
  if (help.notes?.length) lines.push('', ...help.notes);
  lines.push('', 'Examples:', ...help.examples.map((example) => `  ${example}`), '', exitCodesHelp(help.gate === true), '');
  return fitHelp(lines.join('\n'));
}

type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

export interface Parsed<V extends Values = Values> {
  values: V;
  positionals: string[];
}

/**
 * Parses argv against the command's options (plus the global ones). Returns undefined after
 * printing the help for `--help`.
 */
export function parseCommand(argv: string[], options: OptionSpecs, help: CommandHelp, positionals: { min?: number; max?: number; names?: string } = {}): Parsed | undefined {
  const all: OptionSpecs = { ...options, ...GLOBAL_OPTIONS };
  const config: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, spec] of Object.entries(all)) {
    config[name] = { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options: config, strict: true, allowPositionals: true, allowNegative: false });
  } catch (error) {
    throw new UsageError(cleanParseError((error as Error).message, Object.keys(all)), `Run \`${help.usage.split(' ').slice(0, 2).join(' ')} --help\` for the options.`);
  }
  if (parsed.values.help) {
    printText('stdout', renderHelp(help, all));
    return undefined;
  }
  const min = positionals.min ?? 0;
  const max = positionals.max ?? 0;
  if (parsed.positionals.length < min) {
    throw new UsageError(`missing ${positionals.names ?? 'argument'}`, `Usage: ${help.usage}`);
  }
  if (parsed.positionals.length > max) {
    throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[max])}`, `Usage: ${help.usage}`);
  }
  return { values: parsed.values as Values, positionals: parsed.positionals };
}

export function cleanParseError(message: string, known: readonly string[] = []): string {
  // node:util messages are long and mention internals; keep the part that names the flag.
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (unknown) {
    const suggestion = didYouMean(unknown[1]!.replace(/^-+/, ''), known, (name) => `--${name}`);
    return `unknown option ${unknown[1]}${suggestion ? `. ${suggestion}` : ''}`;
  }
  const missing = /Option '([^']+)' argument missing/.exec(message);
  if (missing) return `${missing[1]?.replace(/^-\w, /, '')} needs a value`;
  const notValue = /Option '([^']+)' does not take an argument/.exec(message);
  if (notValue) return `${notValue[1]?.replace(/^-\w, /, '')} takes no value`;
  // `--max-tokens -5`: node reads -5 as an option; say how to give a value that starts with a dash.
  const ambiguous = /Option '([^']+)' argument is ambiguous/.exec(message);
  if (ambiguous) {
    const flag = ambiguous[1]!.replace(/^-\w, /, '');
    return `${flag}: its value starts with "-", which reads as another option; write ${flag}=VALUE`;
  }
  return message.split('\n')[0] ?? message;
}

/** `typed` when it is one of `compliance <command>`'s subcommands (commands/index.ts); else a usage error with the closest. */
export function subcommandOf(command: string, typed: string | undefined): string {
  const known = COMMANDS[command]?.subcommands ?? [];
  if (typed !== undefined && known.includes(typed)) return typed;
  const suggestion = typed === undefined ? '' : didYouMean(typed, known, (name) => `compliance ${command} ${name}`);
  const list = `${known.slice(0, -1).join(', ')}${known.length > 1 ? ' or ' : ''}${known.at(-1) ?? ''}`;
  throw new UsageError(typed === undefined ? `compliance ${command} needs a subcommand: ${list}` : `unknown subcommand ${JSON.stringify(typed)} of compliance ${command}.${suggestion ? ` ${suggestion}` : ''}`, `Use ${list}; compliance help ${command} shows each.`);
}

export function stringFlag(values: Values, name: string): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} needs a value`);
  return value.trim();
}

export function booleanFlag(values: Values, name: string): boolean {
  return values[name] === true;
}

/** A whole number flag within [min, max]. */
export function integerFlag(values: Values, name: string, range: { min?: number; max?: number; example?: string } = {}): number | undefined {
  const raw = stringFlag(values, name);
  if (raw === undefined) return undefined;
  const cleaned = raw.replace(/[_,]/g, '');
  const value = /^-?\d+$/.test(cleaned) ? Number(cleaned) : Number.NaN;
  const min = range.min ?? 0;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const bounds = range.max !== undefined ? `between ${min} and ${max}` : `of at least ${min}`;
    throw new UsageError(`--${name} must be a whole number ${bounds} (got ${JSON.stringify(raw)})`, range.example ? `For example --${name} ${range.example}.` : undefined);
  }
  return value;
}

/** A number flag (decimals allowed) within [min, max]. */
export function numberFlag(values: Values, name: string, range: { min: number; max: number }): number | undefined {
  const raw = stringFlag(values, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < range.min || value > range.max) {
    throw new UsageError(`--${name} must be a number between ${range.min} and ${range.max} (got ${JSON.stringify(raw)})`);
  }
  return value;
}

export function enumFlag<T extends string>(values: Values, name: string, allowed: readonly T[]): T | undefined {
  const raw = stringFlag(values, name);
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new UsageError(`--${name} must be one of: ${allowed.join(', ')} (got ${JSON.stringify(raw)})`);
  }
  return raw as T;
}

/** A comma-separated list flag whose items must be in `allowed`. */
export function listFlag<T extends string>(values: Values, name: string, allowed?: readonly T[]): T[] | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const items = (Array.isArray(raw) ? raw : [raw]).flatMap((entry) => String(entry).split(',')).map((item) => item.trim()).filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${name} needs at least one value`);
  if (allowed) {
    const wrong = items.filter((item) => !(allowed as readonly string[]).includes(item));
    if (wrong.length) throw new UsageError(`--${name}: ${wrong.map((w) => JSON.stringify(w)).join(', ')} not one of: ${allowed.join(', ')}`);
  }
  return [...new Set(items)] as T[];
}

export function dateFlag(values: Values, name: string): string | undefined {
  const raw = stringFlag(values, name);
  if (raw === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || Number.isNaN(Date.parse(`${raw}T00:00:00Z`))) {
    throw new UsageError(`--${name} must be a date written YYYY-MM-DD (got ${JSON.stringify(raw)})`);
  }
  return raw;
}

/** owner/name, as GitHub spells repositories. */
export function repositoryFlag(values: Values, name: string): string | undefined {
  const raw = stringFlag(values, name);
  if (raw === undefined) return undefined;
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(raw)) throw new UsageError(`--${name} must be owner/name (got ${JSON.stringify(raw)})`);
  return raw;
}
