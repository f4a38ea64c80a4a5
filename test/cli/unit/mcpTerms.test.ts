/** The MCP server's errors in the assistant's terms: the service's REST paths and the CLI's commands become tools. */
import { describe, expect, it } from 'vitest';
import { inToolTerms } from '../../../cli/mcp/results.js';

describe('inToolTerms', () => {
  it.each([
    ['GET /library lists your documents.', 'listLibrary lists your documents.'],
    ['Read the document with GET /library/documents/doc_1.', 'Read the document with getLibraryDocument (id doc_1).'],
    ['Poll GET /jobs/3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a until it is completed.', 'Poll getJob (jobId 3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a) until it is completed.'],
    ['Refresh doc_9 instead (POST /library/documents/doc_9/refresh).', 'Refresh doc_9 instead (refreshLibraryDocument (id doc_9)).'],
    ['Wait for it (GET /jobs/{jobId}), then submit.', 'Wait for it (getJob), then submit.'],
    ['Check the value against GET /openapi.json.', 'Check the value against the resource openapi://compliance-engine.'],
    ['Buy a credit pack with POST /billing/checkout; GET /billing stays open.', 'Buy a credit pack with createCheckout; getBilling stays open.'],
    ['Buy pack25 (compliance checkout pack25).', 'Buy pack25 (createCheckout (pack pack25)).'],
    ['Use a slug: `compliance frameworks list` lists them.', 'Use a slug: getCapabilities (verifiedFrameworks) lists them.'],
    ['not found in /repo: run `compliance init` to write a commented example', 'not found in /repo: ask the user to run `compliance init` in that directory to write a commented example'],
  ])('%s', (text, expected) => {
    expect(inToolTerms(text)).toBe(expected);
  });

  it('leaves other text alone', () => {
    expect(inToolTerms('The GET request to the library failed; compliance matters.')).toBe('The GET request to the library failed; compliance matters.');
  });
});
