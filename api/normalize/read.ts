/**
 * Helpers for the tolerant response adapters: look a value up under several plausible names, coerce
 * it gently, and fail with `unexpected_response` naming what was looked for and the keys seen.
 */
import { ComplianceApiError } from '../errors.js';

export type JsonObject = Record<string, unknown>;

export interface NormalizeContext {
  operationId: string;
  /** The validated call input (path parameters included), for values the answer may omit. */
  input?: Record<string, unknown>;
}

export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `name`, where a dotted name walks into nested objects (`balance.tokens`). */
function valueAt(object: JsonObject, name: string): unknown {
  let value: unknown = object;
  for (const part of name.split('.')) {
    if (!isRecord(value)) return undefined;
    value = value[part];
  }
  return value;
}

/** The first name that holds a value other than undefined or null. */
export function first(object: JsonObject, names: readonly string[]): { name: string; value: unknown } | undefined {
  for (const name of names) {
    const value = valueAt(object, name);
    if (value !== undefined && value !== null) return { name, value };
  }
  return undefined;
}

export function toText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Numbers, and numeric strings such as "85", "85%", "1,200". */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const cleaned = value.trim().replace(/,/g, '').replace(/%$/, '');
  if (cleaned === '') return undefined;
  const number = Number(cleaned);
  return Number.isFinite(number) ? number : undefined;
}

function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 1 || value === 'on' || value === 'yes') return true;
  if (value === 'false' || value === 0 || value === 'off' || value === 'no') return false;
  return undefined;
}

/** An array of strings, or a comma-separated string. */
export function toStringList(value: unknown): string[] | undefined {
  if (typeof value === 'string') return value.split(',').map((item) => item.trim()).filter(Boolean);
  if (!Array.isArray(value)) return undefined;
  return value.map((item) => (isRecord(item) ? toText(item.name ?? item.label ?? item.value) : toText(item))).filter(
    (item): item is string => item !== undefined,
  );
}

export function pickText(object: JsonObject, names: readonly string[]): string | undefined {
  for (const name of names) {
    const text = toText(valueAt(object, name));
    if (text !== undefined) return text;
  }
  return undefined;
}

export function pickNumber(object: JsonObject, names: readonly string[]): number | undefined {
  for (const name of names) {
    const number = toNumber(valueAt(object, name));
    if (number !== undefined) return number;
  }
  return undefined;
}

export function pickBoolean(object: JsonObject, names: readonly string[]): boolean | undefined {
  for (const name of names) {
    const flag = toBoolean(valueAt(object, name));
    if (flag !== undefined) return flag;
  }
  return undefined;
}

export function pickArray(object: JsonObject, names: readonly string[]): unknown[] | undefined {
  for (const name of names) {
    const value = valueAt(object, name);
    if (Array.isArray(value)) return value;
  }
  return undefined;
}

export function pickRecord(object: JsonObject, names: readonly string[]): JsonObject | undefined {
  for (const name of names) {
    const value = valueAt(object, name);
    if (isRecord(value)) return value;
  }
  return undefined;
}

/** Copies only the defined entries, so optional fields stay absent rather than `undefined`. */
export function defined<T extends JsonObject>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}

/** The error for an answer that lacks something the model needs. */
export function unexpected(
  context: NormalizeContext,
  what: string,
  looked: readonly string[],
  seen: unknown,
): ComplianceApiError {
  const keys = isRecord(seen) ? Object.keys(seen) : [];
  const shape = isRecord(seen) ? `keys seen: ${keys.join(', ') || '(none)'}` : `got ${Array.isArray(seen) ? 'an array' : typeof seen}`;
  return new ComplianceApiError({
    code: 'unexpected_response',
    operationId: context.operationId,
    message: `${context.operationId}: unexpected response: no ${what} (looked for ${looked.join(', ')}); ${shape}`,
    hint: 'The service answered in a shape this client does not recognise; upgrade the package or report it with the request id.',
    details: { keysSeen: keys, missing: what },
  });
}

/**
 * The object to read. Answers wrapped as `{data: {...}}` or `{result: {...}}` (and nothing else
 * of note) are unwrapped.
 */
export function objectOf(raw: unknown, context: NormalizeContext, what: string): JsonObject {
  if (!isRecord(raw)) throw unexpected(context, what, ['an object'], raw);
  const keys = Object.keys(raw);
  for (const wrapper of ['data', 'result']) {
    const inner = raw[wrapper];
    if (isRecord(inner) && keys.every((key) => key === wrapper || key === 'meta' || key === 'links')) return inner;
  }
  return raw;
}

/** Lower-case, with spaces and dashes as underscores: "In Progress" → "in_progress". */
export function token(value: string): string {
  return value.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

/** A key mode from `mode`, `environment`, `livemode`…; undefined when the answer does not say. */
export function pickMode(object: JsonObject): 'sandbox' | 'live' | undefined {
  const text = pickText(object, ['mode', 'keyMode', 'environment', 'env']);
  if (text !== undefined) {
    const mode = token(text);
    if (mode === 'sandbox' || mode === 'test') return 'sandbox';
    if (mode === 'live' || mode === 'production') return 'live';
  }
  const live = pickBoolean(object, ['livemode', 'live']);
  if (live !== undefined) return live ? 'live' : 'sandbox';
  const sandbox = pickBoolean(object, ['sandbox']);
  return sandbox === undefined ? undefined : sandbox ? 'sandbox' : 'live';
}
