/** The tolerant readers under every response adapter (api/normalize/read.ts), read directly. */
import { describe, expect, it } from 'vitest';
import {
  defined,
  first,
  objectOf,
  pickArray,
  pickBoolean,
  pickMode,
  pickNumber,
  pickRecord,
  pickText,
  toNumber,
  toStringList,
  toText,
  token,
  unexpected,
} from '../../api/normalize/read.js';

const context = { operationId: 'getUsage' };

describe('coercing values', () => {
  it('toText takes strings and finite numbers', () => {
    expect([toText('a'), toText(''), toText(3), toText(Number.NaN), toText(Infinity), toText(true), toText(null)]).toEqual(['a', '', '3', undefined, undefined, undefined, undefined]);
  });

  it('toNumber takes finite numbers and numeric text with thousands commas and a trailing %', () => {
    expect([toNumber(85), toNumber(Infinity), toNumber(' 85% '), toNumber('1,200'), toNumber('1,2,00.5'), toNumber('%'), toNumber(' '), toNumber('85%%'), toNumber('8%5'), toNumber('abc'), toNumber(true)]).toEqual([
      85, undefined, 85, 1200, 1200.5, undefined, undefined, undefined, undefined, undefined, undefined,
    ]);
  });

  it('toStringList splits text on commas and reads arrays of text or named objects', () => {
    expect(toStringList(' a, ,b ,')).toEqual(['a', 'b']);
    expect(toStringList(['a', 2, { name: 'n' }, { label: 'l' }, { value: 'v' }, { name: null, label: 'L' }, { other: 'x' }, null, true])).toEqual(['a', '2', 'n', 'l', 'v', 'L']);
    expect(toStringList(5)).toBeUndefined();
  });

  it('token lower-cases and joins words with underscores', () => {
    expect(token('  In Progress ')).toBe('in_progress');
    expect(token('Not-Started  Yet')).toBe('not_started_yet');
  });
});

describe('picking under several names', () => {
  const object = { a: null, b: 'text', n: 'x', m: '12', nested: { tokens: 5, deep: { on: 'yes' } }, list: [1], record: { k: 1 }, flag: 'maybe' };

  it('first skips undefined and null and walks dotted names', () => {
    expect(first(object, ['a', 'missing', 'b'])).toEqual({ name: 'b', value: 'text' });
    expect(first(object, ['nested.tokens'])).toEqual({ name: 'nested.tokens', value: 5 });
    expect(first(object, ['b.length', 'nested.deep.on'])).toEqual({ name: 'nested.deep.on', value: 'yes' });
    expect(first(object, ['a', 'nope'])).toBeUndefined();
  });

  it('each picker takes the first name whose value it can read', () => {
    expect(pickText(object, ['a', 'list', 'b'])).toBe('text');
    expect(pickText(object, ['a'])).toBeUndefined();
    expect(pickNumber(object, ['n', 'm'])).toBe(12);
    expect(pickNumber(object, ['n'])).toBeUndefined();
    expect(pickBoolean(object, ['flag', 'nested.deep.on'])).toBe(true);
    expect(pickBoolean(object, ['flag'])).toBeUndefined();
    expect(pickArray(object, ['record', 'list'])).toEqual([1]);
    expect(pickArray(object, ['record'])).toBeUndefined();
    expect(pickRecord(object, ['list', 'record'])).toEqual({ k: 1 });
    expect(pickRecord(object, ['list'])).toBeUndefined();
  });

  it.each([
    [true, true], ['true', true], [1, true], ['on', true], ['yes', true],
    [false, false], ['false', false], [0, false], ['off', false], ['no', false],
    ['TRUE', undefined], [2, undefined], ['', undefined],
  ])('pickBoolean reads %j as %s', (value, expected) => {
    expect(pickBoolean({ value }, ['value'])).toBe(expected);
  });

  it('defined drops undefined entries only', () => {
    const result = defined({ a: undefined, b: null, c: 0 });
    expect(result).toEqual({ b: null, c: 0 });
    expect(Object.keys(result)).toEqual(['b', 'c']);
  });
});

describe('the shape of an answer', () => {
  it('objectOf unwraps {data} and {result} holding nothing else of note', () => {
    expect(objectOf({ data: { x: 1 }, meta: {}, links: {} }, context, 'usage')).toEqual({ x: 1 });
    expect(objectOf({ result: { x: 2 } }, context, 'usage')).toEqual({ x: 2 });
    expect(objectOf({ data: { x: 1 }, total: 3 }, context, 'usage')).toEqual({ data: { x: 1 }, total: 3 });
    expect(objectOf({ data: [1] }, context, 'usage')).toEqual({ data: [1] });
    expect(objectOf({ result: 'ok', data: { x: 1 } }, context, 'usage')).toEqual({ result: 'ok', data: { x: 1 } });
  });

  it('objectOf refuses what is no object, saying what it got', () => {
    expect(() => objectOf([1], context, 'usage')).toThrow('getUsage: unexpected response: no usage (looked for an object); got an array');
    expect(() => objectOf('x', context, 'usage')).toThrow('; got string');
    expect(() => objectOf(null, context, 'usage')).toThrow('; got object');
  });

  it('unexpected names what was looked for and the keys seen', () => {
    const error = unexpected(context, 'balance', ['balance', 'tokens'], { a: 1, b: 2 });
    expect(error).toMatchObject({
      code: 'unexpected_response',
      operationId: 'getUsage',
      message: 'getUsage: unexpected response: no balance (looked for balance, tokens); keys seen: a, b',
      details: { keysSeen: ['a', 'b'], missing: 'balance' },
    });
    expect(error.hint).toMatch(/^The service answered in a shape/);
    expect(unexpected(context, 'balance', ['balance'], {}).message).toMatch(/keys seen: \(none\)$/);
    expect(unexpected(context, 'balance', ['balance'], [1]).details).toEqual({ keysSeen: [], missing: 'balance' });
  });
});

describe('pickMode', () => {
  it.each([
    [{ mode: 'Sandbox' }, 'sandbox'], [{ keyMode: 'test' }, 'sandbox'], [{ environment: 'LIVE' }, 'live'], [{ env: 'production' }, 'live'],
    [{ mode: 'staging', livemode: true }, 'live'], [{ live: 'false' }, 'sandbox'], [{ livemode: 'yes', sandbox: true }, 'live'],
    [{ sandbox: true }, 'sandbox'], [{ sandbox: 'no' }, 'live'], [{ mode: 'staging' }, undefined], [{}, undefined],
  ])('%j → %s', (object, mode) => {
    expect(pickMode(object)).toBe(mode);
  });
});
