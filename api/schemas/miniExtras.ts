/**
 * What zod classic's methods did that zod mini (all this project's schemas use, for the bundles'
 * size) spells differently or not at all, written once so every schema reads and behaves as before.
 */
import * as z from 'zod/v4/mini';

/** The issue a superRefine function reports; `code` is `custom`. */
interface CustomIssue {
  code: 'custom';
  message: string;
  path?: PropertyKey[];
  params?: Record<string, unknown>;
}

/** Classic's `.superRefine(fn)`: a check whose function reports any number of issues through `ctx.addIssue`. */
export function superRefine<T>(fn: (value: T, ctx: { addIssue(issue: CustomIssue): void }) => void): z.core.$ZodCheck<T> {
  const check = z.check<T>((payload) => {
    fn(payload.value, { addIssue: (issue) => payload.issues.push({ ...issue, input: payload.value, inst: check, continue: !check._zod.def.abort }) });
  });
  return check;
}

/** Classic's `.meta(data)` and `.describe(text)`: a copy of the schema registered with the metadata; the original stays bare. */
export function withMeta<T extends z.ZodMiniType>(schema: T, meta: z.core.GlobalMeta): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy as z.core.$ZodType, meta);
  return copy;
}

/** Classic's `.unwrap()` of an optional or nullable: the schema it wraps. */
export function unwrap<T extends z.core.SomeType>(schema: z.ZodMiniOptional<T> | z.ZodMiniNullable<T>): T {
  return schema._zod.def.innerType;
}
