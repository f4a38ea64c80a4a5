/** The OpenAPI description documents the library and mapping codes at the statuses the sandbox answers them with. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ComplianceClient } from '../../api/node/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { sandbox, SANDBOX_KEY } from './helpers.js';

let box: RunningSandbox;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the description is arbitrary JSON
let document: any;
beforeAll(async () => {
  box = await sandbox();
  document = await new ComplianceClient({ apiKey: SANDBOX_KEY, baseUrl: box.baseUrl, maxRetries: 0 }).getOpenApi();
});
afterAll(async () => {
  await box.close();
});

it.each([
  ['/library/documents', 'post', '409', ['duplicate_document', 'library_full', 'documentId', '25', '500']],
  ['/library/documents', 'post', '400', ['content_too_short', 'content_too_long', '300,000']],
  ['/library/documents/{id}/refresh', 'post', '409', ['document_unchanged', 'duplicate_document', 'document_busy']],
  ['/library/documents/{id}/refresh', 'post', '404', ['document_not_found']],
  ['/library/search', 'post', '400', ['invalid_limit', 'default 10', '50', 'invalid_query']],
  ['/library', 'get', '400', ['invalid_limit', 'invalid_cursor']],
  ['/documents/map', 'post', '400', ['framework_not_verified', 'closest', 'unsupported_file_type', 'unreadable_file']],
  ['/documents/map', 'post', '404', ['framework_not_found']],
  ['/documents/map', 'post', '413', ['upload_too_large', '10 MB']],
])('%s %s documents %s with its codes', (path, method, status, words) => {
  const response = document.paths[path][method].responses[status];
  expect(response.$ref).toBe(`#/components/responses/Error${status}`);
  for (const word of words) expect(response.description).toContain(word);
});
