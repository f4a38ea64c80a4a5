import { describe, expect, it } from 'vitest';
import {
  ReviewError,
  checkBudget,
  documentTitle,
  planSync,
  repositoryTag,
  runSync,
  smallestPackCovering,
  textHashes,
  type LibraryDocument,
  type PlanSyncInput,
  type DocumentGroup,
} from '../../review/index.js';
import type { ComplianceApi } from '../../api/clientTypes.js';
import { contentHash, normaliseContent } from '../../api/contentHash.js';
import { LIMITS } from '../../api/schemas/common.js';
import { libraryContent } from '../../review/syncPlan.js';

const text = (topic: string) => `# ${topic}\n\n${`This policy describes ${topic} at Northwind. `.repeat(10)}\n`;
const groups: DocumentGroup[] = [{ name: 'policies', paths: ['policies/*.md'], category: 'Policies', tags: ['security'] }];
const TAG = 'repo:northwind/policies';
let seq = 0;
function doc(filename: string | null, content: string | undefined, tags = [TAG], extra: Partial<LibraryDocument> = {}): LibraryDocument {
  return { id: `doc-${++seq}`, title: filename ?? 'untitled', filename, tags, version: 1, ...(content === undefined ? {} : { contentHash: contentHash(content) }), ...extra };
}
function plan(input: Partial<PlanSyncInput>) {
  return planSync({ files: [], library: [], repoTag: TAG, groups, deleteRemoved: false, ...input });
}

describe('planSync', () => {
  it('never sends blank text, and counts characters leniently as the client does (issue 25)', () => {
    const files = [
      { path: 'policies/spaces.md', content: ' '.repeat(300) },
      { path: 'policies/invisible.md', content: '\u200B'.repeat(300) },
      { path: 'policies/braille.md', content: '\u2800'.repeat(300) },
      // 150 letters outside the BMP: 300 UTF-16 code units, so a service counting either way might take it; the service says.
      { path: 'policies/astral.md', content: '𝐀'.repeat(150) },
    ];
    const result = plan({ files });
    expect(result.items.map((item) => [item.path, item.kind])).toEqual([
      ['policies/spaces.md', 'invalid'],
      ['policies/invisible.md', 'invalid'],
      ['policies/braille.md', 'invalid'],
      ['policies/astral.md', 'new'],
    ]);
    for (const item of result.items.slice(0, 3)) expect(item).toMatchObject({ reason: expect.stringContaining('no letter or digit'), tokens: 0 });
  });

  it('classifies new, changed, unchanged and removed, and prices them', () => {
    const files = [
      { path: 'policies/changed.md', content: text('incident response, revised') },
      { path: 'policies/same.md', content: text('acceptable use').replace(/\n/g, '\r\n') },
      { path: 'policies/new.md', content: text('access control') },
    ];
    const library = [doc('policies/changed.md', text('incident response')), doc('policies/same.md', text('acceptable use')), doc('policies/gone.md', text('old'))];
    const result = plan({ files, library });
    expect(result.items.map((item) => [item.kind, item.path])).toEqual([
      ['changed', 'policies/changed.md'],
      ['unchanged', 'policies/same.md'],
      ['new', 'policies/new.md'],
      ['removed', 'policies/gone.md'],
    ]);
    expect(result.totalTokens).toBe(800_000);
    const created = result.items.find((item) => item.kind === 'new');
    expect(created).toMatchObject({ title: 'access control', category: 'Policies', tags: [TAG, 'security'] });
    expect(result.contents.get('policies/new.md')).toBe(normaliseContent(text('access control')));
    expect(result.items.find((item) => item.kind === 'removed')).toMatchObject({ delete: false });
  });

  it('spends nothing on an unchanged repo and exactly k refreshes for k edits', () => {
    const files = ['a', 'b', 'c'].map((name) => ({ path: `policies/${name}.md`, content: text(name) }));
    const library = files.map((file) => doc(file.path, file.content));
    expect(plan({ files, library }).totalTokens).toBe(0);
    const edited = files.map((file, index) => (index < 2 ? { ...file, content: `${file.content}More.\n` } : file));
    expect(plan({ files: edited, library }).totalTokens).toBe(2 * 400_000);
  });

  it('treats the same text under a new path as a free rename, not a removal', () => {
    const library = [doc('policies/old-name.md', text('vendors'))];
    const result = plan({ files: [{ path: 'policies/new-name.md', content: text('vendors') }], library, deleteRemoved: true });
    expect(result.items).toEqual([expect.objectContaining({ kind: 'renamed', path: 'policies/new-name.md', libraryPath: 'policies/old-name.md', tokens: 0 })]);
    expect(result.totalTokens).toBe(0);
  });

  it('never marks for deletion a document without this repo tag', () => {
    const library = [doc('policies/x.md', text('x'), []), doc('policies/y.md', text('y'), ['repo:other/repo']), doc('policies/z.md', text('z'))];
    const result = plan({ files: [{ path: 'policies/a.md', content: text('a') }], library, deleteRemoved: true });
    const removed = result.items.filter((item) => item.kind === 'removed');
    expect(removed.map((item) => item.path)).toEqual(['policies/z.md']);
    expect(removed[0]).toMatchObject({ delete: true });
  });

  it('does not send duplicates or files outside the size limits', () => {
    const files = [
      { path: 'policies/a.md', content: text('same') },
      { path: 'policies/b.md', content: text('same') },
      { path: 'policies/short.md', content: '# Short\n' },
    ];
    const result = plan({ files });
    expect(result.items.map((item) => item.kind)).toEqual(['new', 'duplicate', 'invalid']);
    expect(result.totalTokens).toBe(400_000);
  });

  it('asks for the stored text when the listing has no hash, then decides', () => {
    const stored = doc('policies/a.md', undefined);
    const files = [{ path: 'policies/a.md', content: text('a') }];
    const first = plan({ files, library: [stored] });
    expect(first.items[0]).toMatchObject({ kind: 'needs-content', documentId: stored.id });
    expect(first.needsContent).toEqual([stored.id]);
    const resolved = plan({ files, library: [stored], knownHashes: { [stored.id]: contentHash(text('a')) } });
    expect(resolved.items[0]?.kind).toBe('unchanged');
    expect(resolved.needsContent).toEqual([]);
  });

  it('sends no front matter; a document stored with it (older uploads) is unchanged, and a refresh waits for its stored body', () => {
    const body = text('access control');
    const withFront = (controls: string) => `---\nsatisfies:\n  hipaa-security: [${controls}]\n---\n\n${body}`;
    const files = [{ path: 'policies/a.md', content: withFront('164.312(b), 164.312(d)') }];
    // Synced before uploads dropped front matter: the raw text, same front matter.
    const sameFront = doc('policies/a.md', withFront('164.312(b), 164.312(d)'));
    expect(plan({ files, library: [sameFront] }).items[0]?.kind).toBe('unchanged');
    // Its front matter since edited: unknown until the stored text is read (free), then unchanged.
    const oldFront = doc('policies/a.md', withFront('164.312(b)'));
    const first = plan({ files, library: [oldFront] });
    expect(first.items[0]?.kind).toBe('changed');
    expect(first.unverifiedChanges).toEqual([oldFront.id]);
    const read = plan({ files, library: [oldFront], bodyHashes: { [oldFront.id]: textHashes(withFront('164.312(b)')).sent } });
    expect(read.items[0]?.kind).toBe('unchanged');
    expect(read.totalTokens).toBe(0);
    // A body change stays a refresh once read, of the text without front matter.
    const edited = [{ path: 'policies/a.md', content: `${withFront('164.312(b)')}More.\n` }];
    const changed = plan({ files: edited, library: [oldFront], bodyHashes: { [oldFront.id]: textHashes(withFront('164.312(b)')).sent } });
    expect(changed.items[0]?.kind).toBe('changed');
    expect(changed.unverifiedChanges).toEqual([]);
    expect(changed.contents.get('policies/a.md')).toBe(normaliseContent(`${body}More.\n`));
  });

  it('refuses a glob that matches no file', () => {
    const badGroups: DocumentGroup[] = [...groups, { paths: ['procedures/*.md'], tags: [] }];
    expect(() => plan({ groups: badGroups, files: [{ path: 'policies/a.md', content: text('a') }] })).toThrowError(
      expect.objectContaining({ code: 'glob_no_match', message: expect.stringContaining('"procedures/*.md"') }),
    );
  });
});

describe('checkBudget', () => {
  it('refuses over the balance, naming the shortfall and the smallest pack', () => {
    const check = checkBudget({ totalTokens: 4_000_000 }, { mode: 'live', balanceTokens: 500_000 });
    expect(check.allowed).toBe(false);
    expect(check.shortfall).toBe(3_500_000);
    expect(check.suggestedPack?.code).toBe('pack25');
    expect(check.reasons[0]).toContain('3,500,000 tokens short');
    expect(check.reasons[0]).toContain('pack25');
  });

  it('refuses over --max-tokens in both modes; ignores the balance of a sandbox key', () => {
    expect(checkBudget({ totalTokens: 800_000 }, { mode: 'sandbox', maxTokens: 400_000 }).allowed).toBe(false);
    expect(checkBudget({ totalTokens: 800_000 }, { mode: 'sandbox', balanceTokens: 0 })).toMatchObject({ allowed: true, chargedTokens: 0 });
    expect(checkBudget({ totalTokens: 800_000 }, { mode: 'live', balanceTokens: 800_000, maxTokens: 800_000 }).allowed).toBe(true);
  });

  it('picks packs at their boundaries', () => {
    expect(smallestPackCovering(1)?.code).toBe('pack10');
    expect(smallestPackCovering(3_300_000)?.code).toBe('pack10');
    expect(smallestPackCovering(3_300_001)?.code).toBe('pack25');
    expect(smallestPackCovering(200_000_000)).toBeUndefined();
  });
});

describe('runSync dry run', () => {
  it('calls nothing and reports the plan', async () => {
    const client = new Proxy({}, { get: (_, name) => { throw new Error(`called ${String(name)}`); } }) as ComplianceApi;
    const result = plan({ files: [{ path: 'policies/a.md', content: text('a') }] });
    const run = await runSync(client, result, { mode: 'live', dryRun: true });
    expect(run.tokensSpent).toBe(0);
    expect(run.results).toEqual([expect.objectContaining({ path: 'policies/a.md', outcome: 'planned' })]);
  });

  it('refuses an unresolved plan', async () => {
    const result = plan({ files: [{ path: 'policies/a.md', content: text('a') }], library: [doc('policies/a.md', undefined)] });
    await expect(runSync({} as ComplianceApi, result, { mode: 'live' })).rejects.toBeInstanceOf(ReviewError);
  });
});

describe('planSync: whose document is where', () => {
  it('reads repo tags across case, claims untagged documents at its paths and leaves other repos alone', () => {
    const ours = doc('policies/gone.md', text('old'), ['REPO:Northwind/Policies']);
    const untagged = doc('policies/a.md', text('a, by hand'), ['security']);
    const foreign = doc('policies/b.md', text('b elsewhere'), ['repo:other/x']);
    const result = plan({ files: [{ path: 'policies/a.md', content: text('a') }, { path: 'policies/b.md', content: text('b') }], library: [ours, untagged, foreign] });
    expect(result.items.map((item) => [item.kind, item.path, 'documentId' in item ? item.documentId : undefined])).toEqual([
      ['changed', 'policies/a.md', untagged.id],
      ['new', 'policies/b.md', undefined],
      ['removed', 'policies/gone.md', ours.id],
    ]);
  });

  it('takes the newest of two documents at one path; the older one, still at a path of the repo, is no rename source', () => {
    const older = doc('policies/c.md', text('c, first'), [TAG], { version: 1 });
    const newer = doc('policies/c.md', text('c'), [TAG], { version: 3 });
    const result = plan({ files: [{ path: 'policies/c.md', content: text('c') }, { path: 'policies/copy.md', content: text('c, first') }], library: [older, newer] });
    expect(result.items).toEqual([
      { kind: 'unchanged', path: 'policies/c.md', documentId: newer.id, tokens: 0 },
      { kind: 'duplicate', path: 'policies/copy.md', sameAs: 'policies/c.md', documentId: older.id, tokens: 0 },
    ]);
  });

  it('never moves a document another repository also claims, and names an unnamed holder by its title', () => {
    const shared = doc('old/z.md', text('z'), [TAG, 'repo:other/x']);
    const unnamed = doc(null, text('handbook'), ['repo:other/x'], { title: 'Handbook' });
    const result = plan({ files: [{ path: 'policies/z.md', content: text('z') }, { path: 'policies/h.md', content: text('handbook') }], library: [shared, unnamed] });
    expect(result.items.map((item) => [item.kind, item.path, 'sameAs' in item ? item.sameAs : undefined])).toEqual([
      ['duplicate', 'policies/z.md', 'old/z.md'],
      ['duplicate', 'policies/h.md', 'Handbook'],
    ]);
  });

  it('sends the first of identical new files and names it for the others', () => {
    const files = ['a', 'b', 'c'].map((name) => ({ path: `policies/${name}.md`, content: text('same') }));
    expect(plan({ files }).items.map((item) => [item.kind, 'sameAs' in item ? item.sameAs : undefined])).toEqual([
      ['new', undefined],
      ['duplicate', 'policies/a.md'],
      ['duplicate', 'policies/a.md'],
    ]);
  });

  it('a document of ours edited to the text of a file before it is a duplicate of that file, not a change to send', () => {
    const ours = doc('policies/b.md', text('b, before'));
    const files = [{ path: 'policies/a.md', content: text('same') }, { path: 'policies/b.md', content: text('same') }];
    expect(plan({ files, library: [ours] }).items).toEqual([
      expect.objectContaining({ kind: 'new', path: 'policies/a.md' }),
      { kind: 'duplicate', path: 'policies/b.md', sameAs: 'policies/a.md', documentId: ours.id, tokens: 0 },
    ]);
  });

  it('a removed document of ours without a file name is listed under an empty path', () => {
    const unnamed = doc(null, text('gone'));
    expect(plan({ files: [{ path: 'policies/a.md', content: text('a') }], library: [unnamed] }).items).toEqual([
      expect.objectContaining({ kind: 'new', path: 'policies/a.md' }),
      { kind: 'removed', path: '', documentId: unnamed.id, title: 'untitled', delete: false, tokens: 0 },
    ]);
  });

  it('reads a file given as ./path', () => {
    const result = plan({ files: [{ path: './policies/a.md', content: text('a') }] });
    expect(result.items.map((item) => [item.kind, item.path])).toEqual([['new', 'policies/a.md']]);
    expect(result.contents.get('policies/a.md')).toBe(normaliseContent(text('a')));
  });

  it('asks for the text of an unhashed document of ours only while a new file could be its rename', () => {
    const unhashed = doc('policies/old.md', undefined);
    expect(plan({ files: [{ path: 'policies/new.md', content: text('new') }], library: [unhashed] }).needsContent).toEqual([unhashed.id]);
    const kept = doc('policies/kept.md', text('kept'));
    expect(plan({ files: [{ path: 'policies/kept.md', content: text('kept') }], library: [kept, unhashed] }).needsContent).toEqual([]);
  });
});

describe('documentTitle and repositoryTag', () => {
  it('titles a document by its first heading, trimmed, else by its file name without the extension', () => {
    expect(documentTitle('policies/access.md', 'Intro text # not a heading\n\n## Access control ##\n# Later')).toBe('Access control');
    expect(documentTitle('policies/access.md', '#\tAccess\u00a0\n')).toBe('Access');
    expect(documentTitle('policies/access.md', 'No heading here')).toBe('access');
    expect(documentTitle('policies/v1.2.md', '')).toBe('v1.2');
    expect(documentTitle('policies/.profile', '')).toBe('.profile');
    expect(documentTitle('a.md', `# ${'x'.repeat(600)}`)).toBe('x'.repeat(500));
  });

  it('tags a repository in lower case, whatever the blanks around it', () => {
    expect(repositoryTag(' Acme/Policies ')).toBe('repo:acme/policies');
  });
});


describe('libraryContent at the size limit', () => {
  it('drops the closing newline only from a text that would pass the limit by it', () => {
    const under = 'a'.repeat(LIMITS.libraryMaxChars - 1);
    expect(libraryContent(under)).toEqual({ content: `${under}\n`, problem: undefined });
    const exact = 'a'.repeat(LIMITS.libraryMaxChars);
    expect(libraryContent(exact)).toEqual({ content: exact, problem: undefined });
  });
});

describe('planSync: a path given in another spelling', () => {
  it('keeps the text of a file given as ././path or with a doubled slash, under the path its glob names', () => {
    const files = [{ path: '././policies/a.md', content: text('access') }, { path: 'policies//b.md', content: text('backup') }];
    const result = plan({ files });
    expect(result.items.map((item) => [item.path, item.kind])).toEqual([['policies/a.md', 'new'], ['policies/b.md', 'new']]);
    expect(result.contents.get('policies/a.md')).toBe(normaliseContent(text('access')));
    expect(result.contents.get('policies/b.md')).toBe(normaliseContent(text('backup')));
  });
});
