/**
 * The account-level answers read tolerantly (api/normalize/account.ts): the service card, the
 * OpenAPI document, ping and usage. Every name the adapter accepts for a field is read on its own,
 * and what it cannot read fails naming what it looked for. Ping's mode decides whether a call spends
 * live tokens; usage feeds the pacing a user sees.
 */
import { describe, expect, it } from 'vitest';
import { normalizeOpenApi, normalizeServiceCard } from '../../api/normalize/account.js';
import { normalizePing, normalizeUsage } from '../../api/normalize/index.js';
import { at } from './helpers.js';

const context = (operationId: string) => ({ operationId, input: {} });
const card = (raw: unknown) => normalizeServiceCard(raw, context('getServiceCard'));
const ping = (fields: Record<string, unknown>) => normalizePing({ mode: 'live', ...fields }, context('ping'));
const usage = (raw: unknown) => normalizeUsage(raw, context('getUsage'));

describe('the service card', () => {
  it('fails on an answer that is no object', () => {
    expect(() => card('card')).toThrowError('getServiceCard: unexpected response: no service card (looked for an object); got string');
  });

  it.each([
    ['name', ['name', 'service', 'title']],
    ['version', ['version', 'apiVersion', 'api_version']],
  ] as const)('reads the %s from each of its names, else empty', (field, names) => {
    for (const name of names) expect(card({ [name]: 'x' })[field]).toBe('x');
    expect(card({})[field]).toBe('');
  });

  it('reads the description', () => {
    expect(card({ description: 'Compliance engine' }).description).toBe('Compliance engine');
  });

  it.each(['endpoints', 'operations', 'routes'])('reads the endpoints from %s, skipping what is no object', (name) => {
    expect(card({ [name]: [{ method: 'GET', path: '/ping', operationId: 'ping', public: true }, 'GET /x'] }).endpoints).toEqual([{ method: 'GET', path: '/ping', operationId: 'ping', public: true }]);
    expect(card({}).endpoints).toEqual([]);
  });

  it.each([
    ['method', ['method', 'verb']],
    ['path', ['path', 'route', 'url']],
    ['operationId', ['operationId', 'id', 'name']],
  ] as const)('reads an endpoint\'s %s from each of its names, else empty', (field, names) => {
    for (const name of names) expect(card({ endpoints: [{ [name]: 'x' }] }).endpoints[0]?.[field]).toBe('x');
    expect(card({ endpoints: [{}] }).endpoints).toEqual([{ method: '', path: '', operationId: '', public: false }]);
  });

  it.each(['public', 'isPublic'])('reads whether an endpoint is public from %s', (name) => {
    expect(card({ endpoints: [{ [name]: true }] }).endpoints[0]?.public).toBe(true);
  });
});

describe('the OpenAPI document', () => {
  it('is passed through when it has a version and paths, and refused otherwise, naming both', () => {
    const document = { openapi: '3.1.0', paths: {}, info: { title: 'x' } };
    expect(normalizeOpenApi(document, context('getOpenApi'))).toBe(document);
    for (const bad of [{ paths: {} }, { openapi: 3.1, paths: {} }, { openapi: '3.1.0' }, { openapi: '3.1.0', paths: [] }]) {
      expect(() => normalizeOpenApi(bad, context('getOpenApi'))).toThrowError('no OpenAPI document (openapi, paths) (looked for openapi, paths)');
    }
    expect(() => normalizeOpenApi(null, context('getOpenApi'))).toThrowError('no OpenAPI document (looked for an object)');
  });
});

describe('ping', () => {
  it('fails on an answer that is no object, or names no key mode, naming where it looked', () => {
    expect(() => normalizePing(true, context('ping'))).toThrowError('ping: unexpected response: no ping result (looked for an object); got boolean');
    expect(() => normalizePing({ ok: true }, context('ping'))).toThrowError('no key mode (sandbox or live) (looked for mode, keyMode, environment, livemode); keys seen: ok');
  });

  it.each(['ok', 'success', 'authenticated'])('reads whether the key was accepted from %s, else yes', (name) => {
    expect(ping({ [name]: false }).ok).toBe(false);
    expect(ping({}).ok).toBe(true);
  });

  it.each(['client', 'clientName', 'client_name', 'name', 'keyName', 'account', 'client.name'])('reads the client from %s, else empty', (name) => {
    expect(ping(at(name, 'CI')).client).toBe('CI');
    expect(ping({}).client).toBe('');
  });

  it.each(['time', 'serverTime', 'timestamp', 'now'])('reads the server time from %s', (name) => {
    expect(ping({ [name]: '2026-01-01T00:00:00Z' }).time).toBe('2026-01-01T00:00:00Z');
  });
});

describe('usage', () => {
  it('fails on an answer that is no object', () => {
    expect(() => usage([])).toThrowError('getUsage: unexpected response: no usage (looked for an object); got an array');
  });

  it.each(['requests', 'rate', 'requestRate'])('reads the request rate from %s, per minute or as it stands', (name) => {
    expect(usage({ [name]: { perMinute: { used: 3, limit: 60 } } }).requests?.perMinute).toEqual({ used: 3, limit: 60 });
    expect(usage({ [name]: { minute: { used: 3, limit: 60 } } }).requests?.perMinute).toEqual({ used: 3, limit: 60 });
    expect(usage({ [name]: { used: 3, limit: 60 } }).requests?.perMinute).toEqual({ used: 3, limit: 60 });
  });

  it.each([
    ['used', ['used', 'count', 'current', 'value', 'consumed']],
    ['limit', ['limit', 'max', 'quota', 'allowed', 'cap']],
  ] as const)('reads a counter\'s %s from each of its names, and keeps a counter it cannot read as given', (field, names) => {
    const other = field === 'used' ? { limit: 60 } : { used: 3 };
    for (const name of names) expect(usage({ requests: { perMinute: { ...other, [name]: 7 } } }).requests?.perMinute?.[field]).toBe(7);
    expect(usage({ requests: { perMinute: other } }).requests).toStrictEqual({ perMinute: other });
  });

  const GENERATIONS = { day: { used: 1, limit: 5 }, thirtyDays: { used: 2, limit: 50 } };

  it.each(['generations', 'generation', 'quotas'])('reads the generations from %s', (name) => {
    expect(usage({ [name]: GENERATIONS }).generations).toEqual(GENERATIONS);
  });

  it.each(['day', 'daily', 'perDay'])('reads the daily generations from %s', (name) => {
    expect(usage({ generations: { [name]: { used: 1, limit: 5 }, thirtyDays: { used: 2, limit: 50 } } }).generations).toMatchObject(GENERATIONS);
  });

  it.each(['thirtyDays', '30d', 'monthly', 'per30Days'])('reads the thirty-day generations from %s', (name) => {
    expect(usage({ generations: { day: { used: 1, limit: 5 }, [name]: { used: 2, limit: 50 } } }).generations).toMatchObject(GENERATIONS);
  });

  it('keeps generations without both windows as given', () => {
    expect(usage({ generations: { day: { used: 1, limit: 5 } } }).generations).toStrictEqual({ day: { used: 1, limit: 5 } });
    expect(usage({ generations: { daily: { used: 1, limit: 5 } } }).generations).toStrictEqual({ daily: { used: 1, limit: 5 } });
  });

  it.each(['library', 'storage'])('reads the library from %s, its documents nested or as it stands', (name) => {
    expect(usage({ [name]: { documents: { used: 4, limit: 100 }, bytes: 2048 } }).library).toEqual({ documents: { used: 4, limit: 100 }, bytes: 2048 });
    expect(usage({ [name]: { used: 4, limit: 100 } }).library).toEqual({ used: 4, limit: 100, documents: { used: 4, limit: 100 }, bytes: 0 });
  });

  it.each(['bytes', 'sizeBytes', 'usedBytes', 'storageBytes'])('reads the library\'s bytes from %s', (name) => {
    expect(usage({ library: { documents: { used: 4, limit: 100 }, [name]: 2048 } }).library?.bytes).toBe(2048);
  });

  it('keeps a library it cannot read as given, leaves out a rate that is no object, and reads the key mode', () => {
    expect(usage({ library: { documents: 4 } }).library).toStrictEqual({ documents: 4 });
    expect(usage({ mode: 'sandbox' }).mode).toBe('sandbox');
    expect(usage({ requests: 'n/a' })).toStrictEqual({});
  });
});
