/**
 * The second half of the one request-validation step: Ajv (requestValidation.ts) has accepted the
 * input against the OpenAPI document, and this gives it the shape the handlers read, as the operation
 * table's schema would (strings trimmed, a comma list of tags split, generation's aliases folded
 * into framework and type, keys the schema does not name dropped, and always `__proto__`,
 * `constructor` and `prototype`, which name parts of an object's prototype chain). It walks that zod schema and
 * applies its transforms only; it checks nothing, so a request is validated once, by the document.
 * test/sandbox/requestAgreement.test.ts holds it equal to the schema's own parse on every example.
 */
import type * as z from 'zod/v4/mini';

type Def = z.core.$ZodTypeDef & Record<string, unknown>;
type Schema = z.core.$ZodType;

const defOf = (schema: Schema) => schema._zod.def as Def;

/** The JSON kind of a value, as a union option is picked by it. */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  return value === null ? 'null' : typeof value;
}

/** The JSON kind a schema accepts, through wrappers; undefined when it cannot be told (custom, any). */
function acceptedKind(schema: Schema): string | undefined {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
      return acceptedKind(def.innerType as Schema);
    case 'pipe':
      return acceptedKind(def.in as Schema);
    case 'string':
    case 'enum':
      return 'string';
    case 'number':
    case 'int':
      return 'number';
    case 'boolean':
    case 'array':
    case 'object':
      return def.type;
    default:
      return undefined;
  }
}

/** Keys never passed on: JSON.parse makes them own properties, but read through a schema's shape or copied onto an object they reach its prototype. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A transform's context: the table's transforms only reshape, so one that reports an issue is a bug here. */
const transformContext = {
  issues: [],
  addIssue() {
    throw new Error('normalizeInput: a transform of the operation table reported an issue after Ajv had accepted the input');
  },
};

/** `value` as `schema` would output it, assuming it is valid. */
export function normalizeInput(schema: Schema, value: unknown): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
      return value === undefined || value === null ? value : normalizeInput(def.innerType as Schema, value);
    case 'string': {
      if (typeof value !== 'string') return value;
      // .trim() and its kin are "overwrite" checks: the only checks that change the value.
      const checks = (def.checks ?? []) as Array<{ _zod: { def: { check: string; tx?: (input: string) => string } } }>;
      return checks.reduce((text, check) => (check._zod.def.check === 'overwrite' && check._zod.def.tx ? check._zod.def.tx(text) : text), value);
    }
    case 'array':
      return Array.isArray(value) ? value.map((element) => normalizeInput(def.element as Schema, element)) : value;
    case 'object': {
      if (kindOf(value) !== 'object') return value;
      const shape = def.shape as Record<string, Schema>;
      // z.object drops keys it does not name; z.looseObject keeps them (its catchall is not never).
      const catchall = def.catchall as Schema | undefined;
      const rest = catchall && defOf(catchall).type !== 'never' ? catchall : undefined;
      const entries = Object.entries(value as Record<string, unknown>).filter(([key, field]) => !PROTOTYPE_KEYS.has(key) && (Object.hasOwn(shape, key) || rest) && field !== undefined);
      return Object.fromEntries(entries.map(([key, field]) => [key, normalizeInput(Object.hasOwn(shape, key) ? shape[key]! : rest!, field)]));
    }
    case 'union': {
      const options = def.options as Schema[];
      const option = options.find((candidate) => acceptedKind(candidate) === kindOf(value)) ?? options[0]!;
      return normalizeInput(option, value);
    }
    case 'pipe': {
      const input = normalizeInput(def.in as Schema, value);
      const out = defOf(def.out as Schema);
      if (out.type === 'transform') return (out.transform as (input: unknown, context: unknown) => unknown)(input, { ...transformContext, value: input });
      return normalizeInput(def.out as Schema, input);
    }
    default:
      return value;
  }
}
