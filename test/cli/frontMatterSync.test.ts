/**
 * Front matter is never sent to the library and never costs a token, through the built CLI against a
 * live-mode sandbox whose ledger records every charge. Uploads once carried the front matter: a
 * document synced that way (seeded here by sending the raw text, as that sync did) must not be
 * refreshed because uploads now drop it, nor because its front matter alone changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComplianceClient } from '../../api/node/index.js';
import { normaliseContent } from '../../api/contentHash.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { LIVE_KEY, PRICE, buildCli, cli, liveSandbox, removeRepo, tempRepo } from './helpers.js';

const LEGACY = 'policies/access-control.md';
const FRESH = 'policies/incident-response.md';
const frontMatter = (controls: string[], extra = '') => `---\nowner: security\n${extra}satisfies:\n  hipaa-security: [${controls.join(', ')}]\n---\n\n`;

interface LedgerEntry { id: string; operation: string; tokens: number }

describe('front matter is metadata: never uploaded, never charged (live mode)', () => {
  let box: RunningSandbox;
  let repo: string;
  let client: ComplianceClient;
  let body: Record<string, string>;
  const write = (path: string, text: string) => writeFileSync(join(repo, path), text);
  const ledger = async (): Promise<LedgerEntry[]> => {
    const response = await fetch(`${box.baseUrl}/billing`, { headers: { authorization: `Bearer ${LIVE_KEY}` } });
    return ((await response.json()) as { ledger: LedgerEntry[] }).ledger;
  };
  /** The ledger entries `work` added, by operation. */
  const charged = async (work: () => Promise<unknown>): Promise<Array<[string, number]>> => {
    const before = new Set((await ledger()).map((entry) => entry.id));
    await work();
    return (await ledger()).filter((entry) => !before.has(entry.id)).map((entry) => [entry.operation, entry.tokens]);
  };
  const stored = async (filename: string) => {
    const { documents } = await client.listLibrary({ limit: 100 });
    const document = documents.find((entry) => entry.filename === filename);
    if (!document) throw new Error(`no library document ${filename}`);
    return { id: document.id, content: (await client.getLibraryDocument({ id: document.id, include: 'content' })).content ?? '' };
  };
  const sync = async (args: string[] = []) => {
    const run = await cli(['sync', '--json', ...args], { cwd: repo, box });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    return run.json as { counts: Record<string, number>; plannedTokens?: number; tokensSpent?: number };
  };

  beforeAll(async () => {
    buildCli();
    box = await liveSandbox(10_000_000);
    repo = tempRepo({ count: 2 });
    client = new ComplianceClient({ apiKey: LIVE_KEY, baseUrl: box.baseUrl, maxRetries: 0 });
    body = Object.fromEntries([LEGACY, FRESH].map((path) => [path, readFileSync(join(repo, path), 'utf8')]));
    write(LEGACY, frontMatter(['164.312(a)(1)']) + body[LEGACY]);
    write(FRESH, frontMatter(['164.308(a)(6)(i)']) + body[FRESH]);
    // The previous release's sync: the raw text, front matter and all, tagged with the repository.
    const accepted = await client.ingestLibraryDocument({
      title: 'Access Control Policy',
      content: normaliseContent(readFileSync(join(repo, LEGACY), 'utf8')),
      filename: LEGACY,
      category: 'Policies',
      tags: ['repo:acme/policies'],
    });
    await client.waitForJob(accepted.jobId);
    expect((await stored(LEGACY)).content).toContain('satisfies:');
  });
  afterAll(async () => {
    await box?.close();
    if (repo) removeRepo(repo);
  });

  it('a document synced with its front matter before is unchanged; a new one is ingested without it', async () => {
    const entries = await charged(async () => {
      const result = await sync();
      expect(result.counts).toMatchObject({ new: 1, changed: 0, unchanged: 1 });
    });
    expect(entries).toEqual([['ingestLibraryDocument', -PRICE]]);
    const fresh = (await stored(FRESH)).content;
    expect(fresh).not.toContain('satisfies');
    expect(fresh).not.toContain('owner: security');
    expect(fresh.startsWith('# Incident')).toBe(true);
    expect(fresh).toBe(normaliseContent(body[FRESH] as string));
  });

  it("front matter edited (a line and a control added), on the old upload and on the new: 0 tokens, nothing sent", async () => {
    write(LEGACY, frontMatter(['164.312(a)(1)', '164.312(d)'], 'reviewed: 2026-11-01\n') + body[LEGACY]);
    write(FRESH, frontMatter(['164.308(a)(6)(i)', '164.308(a)(6)(ii)'], 'reviewed: 2026-11-01\n') + body[FRESH]);
    const dryRun = await sync(['--dry-run']);
    expect(dryRun).toMatchObject({ plannedTokens: 0, counts: { new: 0, changed: 0, unchanged: 2 } });
    const entries = await charged(async () => expect((await sync()).counts).toMatchObject({ changed: 0, unchanged: 2 }));
    expect(entries).toEqual([]);
    // Nothing was rewritten: the old upload still holds its (old) front matter.
    expect((await stored(LEGACY)).content).not.toContain('164.312(d)');
  });

  it('front matter removed altogether from the old upload: 0 tokens', async () => {
    write(LEGACY, body[LEGACY] as string);
    const entries = await charged(async () => expect((await sync()).counts).toMatchObject({ changed: 0, unchanged: 2 }));
    expect(entries).toEqual([]);
  });

  it('library refresh of a file whose front matter alone differs from the stored text sends nothing', async () => {
    write(LEGACY, frontMatter(['164.312(b)']) + body[LEGACY]);
    const { id } = await stored(LEGACY);
    const entries = await charged(async () => {
      const run = await cli(['library', 'refresh', id, LEGACY, '--json'], { cwd: repo, box });
      expect(run.code, run.stderr + run.stdout).toBe(0);
      expect(run.json).toMatchObject({ tokensSpent: 0, results: [{ outcome: 'unchanged' }] });
    });
    expect(entries).toEqual([]);
  });

  it('a body change is one refresh, and the refreshed text carries no front matter', async () => {
    write(LEGACY, `${frontMatter(['164.312(b)'])}${body[LEGACY]}\nAccess logs are kept for six years.\n`);
    const entries = await charged(async () => expect((await sync()).counts).toMatchObject({ changed: 1, unchanged: 1 }));
    expect(entries).toEqual([['refreshLibraryDocument', -PRICE]]);
    const text = (await stored(LEGACY)).content;
    expect(text).toContain('Access logs are kept for six years.');
    expect(text).not.toContain('satisfies');
    expect(text.startsWith('# Access Control Policy')).toBe(true);
  });

  it('front matter never changes a price: the review plan is the same with and without it', async () => {
    const plan = async () => {
      const run = await cli(['review', '--dry-run', '--json'], { cwd: repo, box });
      expect(run.code, run.stderr + run.stdout).toBe(0);
      return run.json as { estimate: { totalTokens: number; lines: Array<{ operationId: string; count: number }> } };
    };
    const withFrontMatter = await plan();
    for (const path of [LEGACY, FRESH]) write(path, readFileSync(join(repo, path), 'utf8').replace(/^---\n[\s\S]*?\n---\n\n/, ''));
    expect(readFileSync(join(repo, LEGACY), 'utf8').startsWith('# Access Control Policy')).toBe(true);
    const without = await plan();
    // The mapping is priced (the sync, unchanged either way, is not).
    expect(without.estimate.lines).toEqual([expect.objectContaining({ operationId: 'mapDocument', count: 1 })]);
    expect(without.estimate.totalTokens).toBeGreaterThan(0);
    expect(withFrontMatter.estimate).toEqual(without.estimate);
  });
});
