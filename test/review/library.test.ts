/** resolveSyncPlan (review/library): the stored text read (free) where the listing cannot decide, so no refresh is paid for an unchanged body. */
import { describe, expect, it } from 'vitest';
import type { ComplianceApi } from '../../api/clientTypes.js';
import { contentHash } from '../../api/contentHash.js';
import { resolveSyncPlan, type DocumentGroup, type LibraryDocument } from '../../review/index.js';

const TAG = 'repo:northwind/policies';
const groups: DocumentGroup[] = [{ name: 'policies', paths: ['policies/*.md'], tags: [] }];
const BODY = `# Access\n\n${'Access is granted by role and reviewed each quarter. '.repeat(8)}\n`;
const doc = (id: string, filename: string, extra: Partial<LibraryDocument> = {}): LibraryDocument => ({ id, title: filename, filename, tags: [TAG], version: 1, ...extra });

/** A client whose getLibraryDocument answers from `stored` and records each request. */
function client(stored: Record<string, { content?: string; contentHash?: string }>) {
  const asked: Array<{ id: string; include: string | undefined; signal: AbortSignal | undefined }> = [];
  const api = {
    getLibraryDocument: (input: { id: string; include?: string }, options?: { signal?: AbortSignal }) => {
      asked.push({ id: input.id, include: input.include, signal: options?.signal });
      return Promise.resolve({ ...doc(input.id, 'x'), ...stored[input.id] });
    },
  } as unknown as ComplianceApi;
  return { api, asked };
}

const input = (library: LibraryDocument[], files = [{ path: 'policies/access.md', content: BODY }]) => ({ files, library, repoTag: TAG, groups, deleteRemoved: false });
const kinds = (plan: Awaited<ReturnType<typeof resolveSyncPlan>>) => plan.items.map((item) => [item.path, item.kind]);

describe('resolveSyncPlan', () => {
  it('reads nothing when the listing decides every file', async () => {
    const { api, asked } = client({});
    const plan = await resolveSyncPlan(api, input([doc('d1', 'policies/access.md', { contentHash: contentHash(BODY) })]));
    expect(kinds(plan)).toEqual([['policies/access.md', 'unchanged']]);
    expect(asked).toEqual([]);
  });

  it('reads the text of a document listed without a hash, once, and plans with it', async () => {
    const { api, asked } = client({ d1: { content: BODY } });
    const signal = new AbortController().signal;
    const plan = await resolveSyncPlan(api, input([doc('d1', 'policies/access.md')]), { signal });
    expect(kinds(plan)).toEqual([['policies/access.md', 'unchanged']]);
    expect(asked).toEqual([{ id: 'd1', include: 'content', signal }]);
  });

  it('pays no refresh for a document stored with front matter whose body is unchanged, and does when only a hash comes back', async () => {
    const withFrontMatter = `---\ntitle: Access\n---\n${BODY}`;
    const library = [doc('d1', 'policies/access.md', { contentHash: contentHash(withFrontMatter) })];
    const same = await resolveSyncPlan(client({ d1: { content: withFrontMatter } }).api, input(library));
    expect(kinds(same)).toEqual([['policies/access.md', 'unchanged']]);
    expect(same.totalTokens).toBe(0);
    const changed = await resolveSyncPlan(client({ d1: { contentHash: contentHash(withFrontMatter) } }).api, input(library));
    expect(kinds(changed)).toEqual([['policies/access.md', 'changed']]);
  });

  it('refuses to guess when a document comes back without its text or a hash', async () => {
    const { api } = client({ d1: {} });
    const refused = resolveSyncPlan(api, input([doc('d1', 'policies/access.md')]));
    await expect(refused).rejects.toMatchObject({
      name: 'ReviewError',
      code: 'library_content_unavailable',
      message: 'library document d1 came back without its text or a content hash: cannot tell whether it changed',
    });
  });
});
