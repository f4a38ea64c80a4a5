/** /openapi.json passes a real OpenAPI linter and lists exactly the operation table. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationIds, operations } from '../../api/operations.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { toolPath } from '../../scripts/tools/install.mjs';
import { client, sandbox } from './helpers.js';

let box: RunningSandbox;
let document: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- an OpenAPI document
const dir = mkdtempSync(join(tmpdir(), 'sandbox-openapi-'));

beforeAll(async () => {
  box = await sandbox();
  document = (await client(box, null)('GET', '/openapi.json')).body;
});
afterAll(async () => {
  await box.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('OpenAPI description', () => {
  it('is OpenAPI 3.1, version 1.0.0, with exactly the 23 operation ids of the table', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    const ids: string[] = [];
    for (const [path, methods] of Object.entries<Record<string, { operationId: string }>>(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        ids.push(operation.operationId);
        const row = operations[operation.operationId as keyof typeof operations];
        expect([row.method, row.path]).toEqual([method.toUpperCase(), path]);
      }
    }
    expect(ids.sort()).toEqual([...operationIds].sort());
    expect(ids).toHaveLength(23);
  });

  it('documents both auth headers, the error envelope and the multipart upload', () => {
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['apiKeyHeader', 'bearerAuth']);
    expect(document.components.schemas.ErrorEnvelope.properties.error.required).toEqual(['code', 'message', 'hint', 'requestId']);
    const map = document.paths['/documents/map'].post;
    expect(Object.keys(map.requestBody.content)).toEqual(['application/json', 'multipart/form-data']);
    expect(map.responses['400'].$ref).toBe('#/components/responses/Error400');
    expect(document.paths['/'].get.security).toEqual([]);
    const generate = document.paths['/documents/generate'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(generate.properties)).toContain('framework');
    const job = document.paths['/jobs/{jobId}'].get.parameters[0];
    expect(job).toMatchObject({ name: 'jobId', in: 'path', required: true });
  });

  it('passes redocly lint with no errors', async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const result = await promisify(execFile)(toolPath('.bin/redocly'), ['lint', file, '--format=json'], { maxBuffer: 16 * 1024 * 1024 }).catch(
      (error: { stdout: string; stderr: string }) => error,
    );
    const report = JSON.parse(result.stdout) as { totals: { errors: number }; problems: Array<{ severity: string; message: string; ruleId: string }> };
    const errors = report.problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);
});
