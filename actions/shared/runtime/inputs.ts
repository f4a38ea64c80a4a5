/**
 * Reading action inputs. The runner passes each `with:` value as INPUT_<NAME> (upper-cased, dashes
 * kept); an input left out arrives as its action.yml default, or as ''. Every parse failure is an
 * InputError naming the input and what it accepts.
 */
import * as core from '@actions/core';

export class InputError extends Error {
  readonly input: string;
  readonly hint: string | undefined;

  constructor(input: string, message: string, hint?: string) {
    super(`input ${input}: ${message}`);
    this.name = 'InputError';
    this.input = input;
    this.hint = hint;
  }
}

/** The trimmed value, or undefined when empty. */
export function textInput(name: string): string | undefined {
  const value = core.getInput(name).trim();
  return value === '' ? undefined : value;
}

export function requiredTextInput(name: string, hint: string): string {
  const value = textInput(name);
  if (value === undefined) throw new InputError(name, 'is required', hint);
  return value;
}

const TRUE = new Set(['true', 'yes', 'on', '1']);
const FALSE = new Set(['false', 'no', 'off', '0']);

export function booleanInput(name: string, fallback: boolean): boolean {
  const value = textInput(name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  throw new InputError(name, `must be true or false (got ${JSON.stringify(value)})`);
}

export function numberInput(name: string, options: { min?: number; max?: number; integer?: boolean } = {}): number | undefined {
  const raw = textInput(name);
  if (raw === undefined) return undefined;
  const value = Number(raw.replace(/[_,]/g, ''));
  const range = [options.min !== undefined ? `at least ${options.min}` : '', options.max !== undefined ? `at most ${options.max}` : ''].filter(Boolean).join(' and ');
  const expected = `a ${options.integer ? 'whole ' : ''}number${range ? ` ${range}` : ''}`;
  if (!Number.isFinite(value) || (options.integer && !Number.isInteger(value))) {
    throw new InputError(name, `must be ${expected} (got ${JSON.stringify(raw)})`);
  }
  if ((options.min !== undefined && value < options.min) || (options.max !== undefined && value > options.max)) {
    throw new InputError(name, `must be ${expected} (got ${raw})`);
  }
  return value;
}

/** A list written one per line or comma-separated; empty entries dropped. */
export function listInput(name: string): string[] {
  return (textInput(name) ?? '')
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export function choiceInput<const T extends string>(name: string, choices: readonly T[], fallback: T): T {
  const value = textInput(name);
  if (value === undefined) return fallback;
  const match = choices.find((choice) => choice === value.toLowerCase());
  if (!match) throw new InputError(name, `must be one of ${choices.join(', ')} (got ${JSON.stringify(value)})`);
  return match;
}

/** A JSON object input; empty → {}. */
export function jsonObjectInput(name: string): Record<string, unknown> {
  const raw = textInput(name);
  if (raw === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new InputError(name, `is not valid JSON (${(error as Error).message})`, 'Write a JSON object, for example {"cadence": "quarterly"}; in YAML quote it or use a block scalar (|).');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InputError(name, 'must be a JSON object', 'For example {"jobId": "…", "format": "pdf"}.');
  }
  return value as Record<string, unknown>;
}
