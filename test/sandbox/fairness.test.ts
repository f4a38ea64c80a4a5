/**
 * One key cannot starve another (issues 25 and 37): the worker pools keep a queue per key, cap each
 * key's running tasks and serve waiting keys in turn, have at least two workers of which one key
 * holds at most all but one, demote a heavy task's thread, end idle workers, and a key's pending
 * mappings are bounded at admission. Real worker threads and a real sandbox over loopback.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findFramework } from '../../sandbox/catalogue/index.js';
import { ExtractionBusy, ExtractionPool } from '../../sandbox/formats/upload/extractionPool.js';
import { renderDocx } from '../../sandbox/formats/index.js';
import { createMappingPool } from '../../sandbox/mapping/mappingPool.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { MAX_PENDING_MAPPINGS_PER_KEY } from '../../sandbox/server/handlers/documents.js';
import { samplePolicy } from '../formats/sampleModels.js';
import { client, OTHER_KEY, policyText, sandbox, SANDBOX_KEY } from './helpers.js';

const framework = findFramework('hipaa-security')!;
const controls = { slug: framework.slug, name: framework.name, version: framework.version, controls: framework.controls! };

/** Policy-like text of about `length` characters. */
function policySet(length: number): string {
  let text = '';
  for (let section = 1; text.length < length; section++) text += `=== FILE: policies/section-${section}.md ===\n${policyText(`section ${section}`)}\n\n`;
  return text.slice(0, length);
}

let box: RunningSandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

describe('fair worker pools', () => {
  it('serve a second key next, however many tasks the first key queued', async () => {
    const pool = createMappingPool({ size: 1 });
    try {
      const finished: string[] = [];
      const large = policySet(300_000);
      const flood = Array.from({ length: 4 }, (_, i) => pool.run({ text: large, framework: controls }, 'flooding').then(() => void finished.push(`flooding ${i}`)));
      const small = pool.run({ text: policyText('small'), framework: controls }, 'other').then(() => void finished.push('other'));
      expect(pool.pending('flooding')).toBe(4);
      await Promise.all([...flood, small]);
      // Round robin: the other key's one task runs as soon as the first key's running task is done.
      expect(finished).toEqual(['flooding 0', 'other', 'flooding 1', 'flooding 2', 'flooding 3']);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("refuse a key over its own queue, not the keys it would crowd out", async () => {
    const pool = new ExtractionPool({ size: 1, queue: 1 });
    try {
      const docx = await renderDocx(samplePolicy());
      const upload = () => ({ data: docx, filename: 'policy.docx' });
      const first = pool.extract(upload(), 'flooding');
      const second = pool.extract(upload(), 'flooding');
      await expect(pool.extract(upload(), 'flooding')).rejects.toBeInstanceOf(ExtractionBusy);
      const other = pool.extract(upload(), 'other');
      expect((await other).text).toContain('least privilege');
      await Promise.all([first, second]);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

/** Ids of this process's threads at the lowest priority (Linux: nice, field 19 of /proc/self/task/<tid>/stat, is 19). */
function lowestPriorityThreads(): string[] {
  return readdirSync('/proc/self/task').filter((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16] === '19';
    } catch {
      return false; // the thread ended meanwhile
    }
  });
}

describe('pools on a small machine (issue 37)', () => {
  it('have two workers at least, one key holding all but one: the other key does not wait for the first key\'s work', async () => {
    const pool = createMappingPool();
    try {
      expect(pool.size).toBeGreaterThanOrEqual(2);
      expect(pool.perOwner).toBe(pool.size - 1);
      const finished: string[] = [];
      const large = policySet(1_900_000);
      const flood = Array.from({ length: pool.size + 1 }, () => pool.run({ text: large, framework: controls }, 'flooding').then(() => void finished.push('flooding')));
      const small = pool.run({ text: policyText('small'), framework: controls }, 'other').then(() => void finished.push('other'));
      await Promise.all([...flood, small]);
      expect(finished[0]).toBe('other');
    } finally {
      await pool.close();
    }
  }, 120_000);

  it.runIf(process.platform === 'linux')('lower a heavy task\'s thread to the lowest priority and replace its worker after it; a light task keeps its priority', async () => {
    const pool = createMappingPool({ size: 2 });
    try {
      // Threads another test's pool demoted may still be ending: only new ones count.
      const before = new Set(lowestPriorityThreads());
      const demotedNow = () => lowestPriorityThreads().filter((tid) => !before.has(tid));
      await pool.run({ text: policyText('light'), framework: controls }, 'light');
      expect(demotedNow()).toEqual([]);
      const demoted = new Set<string>();
      let done = false;
      const heavy = pool.run({ text: policySet(1_900_000), framework: controls }, 'heavy').finally(() => (done = true));
      while (!done) {
        for (const tid of demotedNow()) demoted.add(tid);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await heavy;
      expect(demoted.size).toBe(1);
      // The demoted thread is ended with its worker.
      await vi.waitFor(() => expect(demotedNow()).toEqual([]), { timeout: 10_000 });
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('end idle workers, and start a fresh one for the next task', async () => {
    const pool = createMappingPool({ size: 2, idleMs: 50 });
    try {
      await pool.run({ text: policyText('first'), framework: controls }, 'key');
      await vi.waitFor(() => expect(pool.alive).toBe(0), { timeout: 10_000 });
      expect(await pool.run({ text: policyText('again'), framework: controls }, 'key')).toMatchObject({ framework: { slug: 'hipaa-security' } });
      expect(pool.alive).toBe(1);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe('mapping admission per key', () => {
  it(`holds at most ${MAX_PENDING_MAPPINGS_PER_KEY} pending mappings per key (429 mappings_busy beyond), while another key is served`, async () => {
    box = await sandbox();
    const flooding = client(box, SANDBOX_KEY);
    const other = client(box, OTHER_KEY);
    const large = policySet(1_900_000);
    const answers = await Promise.all(Array.from({ length: MAX_PENDING_MAPPINGS_PER_KEY + 2 }, () => flooding('POST', '/documents/map', { body: { framework: 'hipaa-security', content: large } })));
    const busy = answers.filter((answer) => answer.status === 429);
    expect(busy).toHaveLength(2);
    for (const answer of busy) {
      expect(answer.body.error.code).toBe('mappings_busy');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect(answers.filter((answer) => answer.status === 202 || answer.status === 200)).toHaveLength(MAX_PENDING_MAPPINGS_PER_KEY);
    const mine = await other('POST', '/documents/map', { body: { framework: 'hipaa-security', content: policyText('small') } });
    expect([200, 202]).toContain(mine.status);
  }, 120_000);

  it('keeps no mapping text in the jobs table: what a flood admitted does not stay in memory (or on disk) after its jobs', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fairness-data-'));
    box = await sandbox({ dataDir });
    const text = policyText('stored input');
    const mapped = await client(box, SANDBOX_KEY)('POST', '/documents/map', { body: { framework: 'hipaa-security', content: text, title: 'Stored' } });
    expect(mapped.status).toBe(202);
    const db = new DatabaseSync(join(dataDir, 'sandbox.sqlite'), { readOnly: true });
    try {
      const row = db.prepare('SELECT input_json FROM sbx_jobs WHERE id = ?').get(mapped.body.jobId) as { input_json: string };
      expect(JSON.parse(row.input_json)).toEqual({ mode: 'sandbox', frameworkSlug: 'hipaa-security', title: 'Stored' });
    } finally {
      db.close();
    }
  });
});
