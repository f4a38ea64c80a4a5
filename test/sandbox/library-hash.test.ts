/**
 * One content identity on both sides: the contentHash the sandbox library lists is exactly what
 * sync (api/contentHash.ts, through review/) computes for the same text, whatever the checkout did to line ends, a BOM,
 * trailing whitespace or trailing newlines; and the library treats all those variants as one content.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComplianceApiError, ComplianceClient } from '../../api/node/index.js';
import { contentHash, normaliseContent, sameHash } from '../../api/contentHash.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { loadPolicies } from '../fixtures/policies/corpus.js';
import { sandbox, SANDBOX_KEY } from './helpers.js';

const base = loadPolicies().find((p) => p.file === 'data-protection-policy.md')!.content;
const lines = base.replace(/\n+$/, '').split('\n');

/** The same text as different checkouts and editors leave it. */
const variants: Array<[string, string]> = [
  ['LF, one final newline', `${lines.join('\n')}\n`],
  ['CRLF line ends', `${lines.join('\r\n')}\r\n`],
  ['old Mac CR line ends', `${lines.join('\r')}\r`],
  ['a byte-order mark', `\uFEFF${lines.join('\n')}\n`],
  ['trailing spaces and tabs on every line', `${lines.map((l) => `${l} \t `).join('\n')}\n`],
  ['no final newline', lines.join('\n')],
  ['three final newlines', `${lines.join('\n')}\n\n\n`],
  ['all of it at once', `\uFEFF${lines.map((l) => `${l}\u00a0 `).join('\r\n')}\r\n\r\n  \r\n`],
];

let box: RunningSandbox;
let compliance: ComplianceClient;
beforeAll(async () => {
  box = await sandbox();
  compliance = new ComplianceClient({ apiKey: SANDBOX_KEY, baseUrl: box.baseUrl, maxRetries: 0 });
});
afterAll(async () => {
  await box.close();
});

describe('content hash agreement between sync and the library', () => {
  const expected = `sha256:${createHash('sha256').update(`${lines.join('\n')}\n`, 'utf8').digest('hex')}`;

  it.each(variants)('normalises %s to the same text and hash', (_, text) => {
    expect(normaliseContent(text)).toBe(`${lines.join('\n')}\n`);
    expect(contentHash(text)).toBe(expected);
  });

  it('lists, for every variant ingested, the hash sync computes, and refuses the other variants as duplicates', async () => {
    for (const [label, text] of variants) {
      const accepted = await compliance.ingestLibraryDocument({ title: label, content: text });
      await compliance.waitForJob(accepted.jobId);
      const listed = (await compliance.listLibrary()).documents.find((d) => d.id === accepted.documentId)!;
      expect(listed.contentHash, label).toBe(contentHash(text));
      expect(sameHash(listed.contentHash!, expected)).toBe(true);
      // The stored text is what was sent; only the identity is normalised.
      expect((await compliance.getLibraryDocument({ id: accepted.documentId!, include: 'content' })).content).toBe(text);
      for (const [otherLabel, other] of variants) {
        const refused = await compliance.ingestLibraryDocument({ title: otherLabel, content: other }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(refused, `${otherLabel} after ${label}`).toBeInstanceOf(ComplianceApiError);
        expect(refused).toMatchObject({ code: 'duplicate_document', details: { documentId: accepted.documentId } });
      }
      await compliance.deleteLibraryDocument({ id: accepted.documentId! });
    }
  });

  it('sees a real edit as a change', () => {
    expect(contentHash(`${lines.join('\n')}\nOne more sentence.\n`)).not.toBe(expected);
    expect(contentHash(` ${lines.join('\n')}\n`)).not.toBe(expected);
  });
});
