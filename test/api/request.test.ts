/** prepareRequest: path parameters, query or JSON body by method, and multipart uploads. */
import { describe, expect, it } from 'vitest';
import type { OperationSpec } from '../../api/operations.js';
import { prepareRequest } from '../../api/request.js';

/** prepareRequest reads only the method, the path and whether the operation takes uploads. */
const operation = (method: OperationSpec['method'], path: string, multipart?: boolean) => ({ method, path, multipart }) as OperationSpec;
const random = () => 0.5;
const text = (body: string | Uint8Array | undefined) => (typeof body === 'string' ? body : new TextDecoder().decode(body));

describe('prepareRequest', () => {
  it('encodes path parameters and leaves them out of the query', async () => {
    const prepared = await prepareRequest(operation('GET', '/jobs/{jobId}/download'), { jobId: 'a/b c', format: 'pdf' }, random);
    expect(prepared).toEqual({ method: 'GET', path: '/jobs/a%2Fb%20c/download?format=pdf' });
  });

  it('GET and DELETE: every other defined key in the query, arrays repeated, objects as JSON, no "?" when empty', async () => {
    const input = { limit: 5, tags: ['a', 'b'], filter: { x: 1 }, flag: false, cursor: undefined };
    expect(await prepareRequest(operation('GET', '/library'), input, random)).toEqual({
      method: 'GET',
      path: '/library?limit=5&tags=a&tags=b&filter=%7B%22x%22%3A1%7D&flag=false',
    });
    expect(await prepareRequest(operation('DELETE', '/library/{id}'), { id: 'doc_1' }, random)).toEqual({ method: 'DELETE', path: '/library/doc_1' });
    expect(await prepareRequest(operation('DELETE', '/library/{id}'), { id: 'doc_1', force: true }, random)).toEqual({
      method: 'DELETE',
      path: '/library/doc_1?force=true',
    });
  });

  it('POST and PUT: the other keys as a JSON body, undefined ones left out', async () => {
    const prepared = await prepareRequest(operation('PUT', '/library/{id}'), { id: 'doc_1', content: 'text', title: undefined }, random);
    expect(prepared).toEqual({ method: 'PUT', path: '/library/doc_1', contentType: 'application/json', body: '{"content":"text"}' });
  });

  it('an upload operation sends a file as multipart, the other fields as text parts', async () => {
    const file = { filename: 'policy.md', data: new TextEncoder().encode('# Policy') };
    const prepared = await prepareRequest(operation('POST', '/map', true), { framework: 'soc2', options: { strict: true }, file }, random);
    expect(prepared.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const body = text(prepared.body);
    expect(body).toContain('name="framework"\r\n\r\nsoc2\r\n');
    expect(body).toContain('name="options"\r\n\r\n{"strict":true}\r\n');
    expect(body).toContain('filename="policy.md"');
    expect(body).toContain('# Policy');
  });

  it('an upload operation without a file, or with something that is no file, sends JSON', async () => {
    const noFile = await prepareRequest(operation('POST', '/map', true), { framework: 'soc2', content: 'text' }, random);
    expect(noFile).toMatchObject({ contentType: 'application/json', body: '{"framework":"soc2","content":"text"}' });
    for (const file of [null, 'policy.md', { filename: 'policy.md' }, { data: 'x' }]) {
      const prepared = await prepareRequest(operation('POST', '/map', true), { file }, random);
      expect(prepared).toMatchObject({ contentType: 'application/json', body: JSON.stringify({ file }) });
    }
  });

  it('a file on an operation that takes no uploads is not sent as multipart', async () => {
    const prepared = await prepareRequest(operation('POST', '/library'), { file: { filename: 'a.md', data: 'x' } }, random);
    expect(prepared.contentType).toBe('application/json');
  });
});
