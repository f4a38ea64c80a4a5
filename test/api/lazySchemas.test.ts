/**
 * The operation table's schemas are built on first use (api/schemas/lazy.ts). A stand-in must read
 * exactly as the schema it builds, and the descriptions assistants see, registered by instance,
 * must still reach every request field.
 */
import * as z from 'zod/v4/mini';
import { describe, expect, it } from 'vitest';
import { operations, operationIds } from '../../api/operations.js';
import { describeRequestFields } from '../../api/schemas/fieldDescriptions.js';
import { lazy, once } from '../../api/schemas/lazy.js';
import { superRefine, withMeta } from '../../api/schemas/miniExtras.js';

describe('lazy schemas', () => {
  it('builds on first use, once', () => {
    let builds = 0;
    const schema = lazy(() => {
      builds++;
      return z.strictObject({ name: z.string().check(z.minLength(1)) });
    });
    expect(builds).toBe(0);
    expect(schema.parse({ name: 'a' })).toEqual({ name: 'a' });
    expect(schema.safeParse({ name: '' }).success).toBe(false);
    expect(Object.keys(schema.shape)).toEqual(['name']);
    expect(builds).toBe(1);
  });

  it('reads as the schema it stands for: methods, instanceof, keys, JSON Schema, composition', () => {
    const real = z.looseObject({ at: withMeta(z.string(), { format: 'date-time' }), n: z.optional(z.number()) });
    const standIn = lazy(() => real);
    expect(standIn).toBeInstanceOf(z.ZodMiniObject);
    expect(Object.getPrototypeOf(standIn)).toBe(Object.getPrototypeOf(real));
    expect(Object.keys(standIn)).toEqual(Object.keys(real));
    expect(z.toJSONSchema(standIn)).toEqual(z.toJSONSchema(real));
    expect(z.array(standIn).parse([{ at: 'x', extra: 1 }])).toEqual([{ at: 'x', extra: 1 }]);
    expect(z.optional(standIn).parse(undefined)).toBeUndefined();
    expect(z.extend(standIn, { m: z.boolean() }).safeParse({ at: 'x', m: 'no' }).success).toBe(false);
  });

  it('answers `in`, and passes writes, definitions and deletions on to the schema it stands for', () => {
    const real = z.object({ a: z.string() }) as unknown as Record<string, unknown>;
    const standIn = lazy(() => real);
    expect('shape' in standIn).toBe(true);
    expect('absent' in standIn).toBe(false);
    standIn.note = 'set';
    expect(real.note).toBe('set');
    Object.defineProperty(standIn, 'defined', { value: 1, configurable: true, enumerable: true });
    expect(real.defined).toBe(1);
    delete standIn.note;
    expect('note' in real).toBe(false);
  });

  it('once: one value for every caller', () => {
    let builds = 0;
    const shared = once(() => ({ built: ++builds }));
    expect(builds).toBe(0);
    expect(shared()).toBe(shared());
    expect(builds).toBe(1);
  });

  it('withMeta registers the copy with its metadata and leaves the original bare', () => {
    const bare = z.string();
    const described = withMeta(bare, { description: 'A name' });
    expect(z.globalRegistry.get(described)).toEqual({ description: 'A name' });
    expect(z.globalRegistry.get(bare)).toBeUndefined();
  });

  it('superRefine reports every issue, its own and those of the checks after it', () => {
    const schema = z.string().check(
      superRefine<string>((value, ctx) => {
        if (value.length < 3) ctx.addIssue({ code: 'custom', message: 'too short' });
      }),
      z.regex(/^[a-z]+$/, 'lower case only'),
    );
    const result = schema.safeParse('A');
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['too short', 'lower case only']);
  });

  it("every field of every operation's input carries its description", () => {
    describeRequestFields();
    const undescribed = (json: Record<string, unknown>, at: string): string[] =>
      Object.entries((json.properties ?? {}) as Record<string, Record<string, unknown>>).flatMap(([name, field]) => [
        ...(typeof field.description === 'string' ? [] : [`${at}.${name}`]),
        ...undescribed(field, `${at}.${name}`),
      ]);
    const missing = operationIds.flatMap((id) => undescribed(z.toJSONSchema(operations[id].input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>, id));
    expect(missing).toEqual([]);
  });
});
