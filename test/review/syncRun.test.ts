import { describe, expect, it } from 'vitest';
import type { ComplianceApi } from '../../api/clientTypes.js';
import { ComplianceApiError } from '../../api/errors.js';
import { contentHash } from '../../api/contentHash.js';
import { planSync, runSync, type LibraryDocument } from '../../review/index.js';

const TAG = 'repo:northwind/policies';
const text = (topic: string) => `# ${topic}\n\n${`Northwind's rules on ${topic}. `.repeat(12)}\n`;

/** Only the four methods runSync uses; each call is recorded. */
function recordingClient(ingest: (title: string) => void) {
  const calls: string[] = [];
  let n = 0;
  const accepted = () => ({ jobId: `00000000-0000-4000-8000-00000000000${++n}`, status: 'queued' as const, poll: '', estimatedSeconds: 0, documentId: `new-${n}` });
  const client = {
    ingestLibraryDocument: async (input: { title: string }) => { calls.push(`ingest ${input.title}`); ingest(input.title); return accepted(); },
    refreshLibraryDocument: async (input: { id: string }) => { calls.push(`refresh ${input.id}`); return accepted(); },
    deleteLibraryDocument: async (input: { id: string }) => { calls.push(`delete ${input.id}`); return { id: input.id, deleted: true }; },
    waitForJob: async (jobId: string) => ({ jobId, status: 'completed' as const }),
  } as unknown as ComplianceApi;
  return { client, calls };
}

describe('runSync', () => {
  const library: LibraryDocument[] = [
    { id: 'd1', title: 'a', filename: 'policies/a.md', tags: [TAG], version: 1, contentHash: contentHash(text('a')) },
    { id: 'd2', title: 'gone', filename: 'policies/gone.md', tags: [TAG], version: 1, contentHash: contentHash(text('gone')) },
  ];
  const files = [
    { path: 'policies/a.md', content: text('a, edited') },
    { path: 'policies/b.md', content: text('b') },
    { path: 'policies/c.md', content: text('c') },
    { path: 'policies/d.md', content: text('d') },
  ];
  const groups = [{ paths: ['policies/*.md'], tags: [] }];

  it('deletes first, charges exactly what completed, and stops ingesting once the library is full', async () => {
    const plan = planSync({ files, library, repoTag: TAG, groups, deleteRemoved: true });
    const { client, calls } = recordingClient((title) => {
      if (title === 'c') throw new ComplianceApiError({ code: 'library_full', message: 'library is full', status: 409 });
    });
    const run = await runSync(client, plan, { mode: 'live', concurrency: 1 });
    expect(calls).toEqual(['delete d2', 'refresh d1', 'ingest b', 'ingest c']);
    expect(run.results.map((r) => [r.path, r.outcome, r.tokensSpent])).toEqual([
      ['policies/a.md', 'refreshed', 400_000],
      ['policies/b.md', 'ingested', 400_000],
      ['policies/c.md', 'failed', 0],
      ['policies/d.md', 'not-attempted', 0],
      ['policies/gone.md', 'deleted', 0],
    ]);
    expect(run.tokensSpent).toBe(800_000);
    expect(run).toMatchObject({ complete: false, stoppedBecause: 'the library is full' });
    expect(run.results[2]?.message).toContain('nothing charged');
  });

  it('reports a duplicate refused by the service as skipped and uncharged; sandbox keys spend nothing', async () => {
    const plan = planSync({ files: files.slice(1, 2), library: [], repoTag: TAG, groups, deleteRemoved: false });
    const { client } = recordingClient(() => {
      throw new ComplianceApiError({ code: 'duplicate_document', message: 'same content', status: 409, details: { documentId: 'x9' } });
    });
    const run = await runSync(client, plan, { mode: 'live' });
    expect(run.results[0]).toMatchObject({ outcome: 'skipped', tokensSpent: 0, message: expect.stringContaining('document x9') });
    const ok = await runSync(recordingClient(() => undefined).client, plan, { mode: 'sandbox' });
    expect(ok).toMatchObject({ tokensSpent: 0, complete: true });
  });
});
