/** The checked-in client methods are what the operation table generates, and each is a real, documented method. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ComplianceClient } from '../../api/client.js';
import { OPERATION_ERRORS } from '../../api/operationErrors.js';
import { operationIds, operations } from '../../api/operations.js';
// @ts-expect-error -- a plain .mjs script without declarations
import { loadTable, OUTPUT, render } from '../../scripts/generate-client.mjs';

const root = resolve(import.meta.dirname, '../..');
const checkedIn = readFileSync(resolve(root, OUTPUT as string), 'utf8');
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table as the script loads it
let table: any;
beforeAll(async () => {
  table = await loadTable();
}, 60_000);

describe('api/generated/clientMethods.ts', () => {
  it('is exactly what the operation table generates (run npm run generate after changing the table)', () => {
    expect(render(table)).toBe(checkedIn);
    const check = spawnSync(process.execPath, ['scripts/generate-client.mjs', '--check'], { cwd: root, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  }, 60_000);

  it('goes stale when a row changes', () => {
    const changed = { ...table, operations: { ...table.operations, ping: { ...table.operations.ping, summary: 'Check the key twice' } } };
    expect(render(changed)).not.toBe(checkedIn);
    expect(render(changed)).toContain('Check the key twice.');
  });

  it('writes each operation as a method of its own with the table summary, description, cost and retry class', () => {
    for (const id of operationIds) {
      const row = operations[id];
      const own = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(ComplianceClient.prototype), id);
      expect(typeof own?.value, id).toBe('function');
      // The interface's declaration carries the doc block; the class's implementation inherits it.
      const block = checkedIn.slice(checkedIn.lastIndexOf('/**', checkedIn.indexOf(`  ${id}(input`)));
      expect(block.startsWith(`/**\n   * ${row.summary}.`), id).toBe(true);
      expect(checkedIn.split(`   * ${row.summary}.\n`).length - 1, `${id}: one doc block`).toBe(1);
      expect(block).toContain(`\`${row.method} ${row.path}\``);
      expect(block).toContain(`Retry: ${row.retry}:`);
    }
    expect(checkedIn).toContain('Cost: 5,000 tokens per call in live mode');
    expect(checkedIn).toContain('Cost: 400,000 tokens per call in live mode');
  });

  it('types every error code the table documents', () => {
    const codes = new Set<string>();
    for (const doc of Object.values(table.SHARED_ERRORS) as Array<{ codes: string[] }>) for (const code of doc.codes) codes.add(code);
    for (const errors of Object.values(OPERATION_ERRORS)) for (const doc of Object.values(errors)) for (const code of doc.codes) codes.add(code);
    expect(codes.has('duplicate_document')).toBe(true);
    for (const code of codes) expect(checkedIn).toContain(`  | '${code}'`);
  });
});
