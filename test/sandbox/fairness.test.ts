/**
 * One key cannot starve another (issue 25): the worker pools keep a queue per key, cap each key's
 * running tasks and serve waiting keys in turn, and a key's pending mappings are bounded at
 * admission. Real worker threads and a real sandbox over loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
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
});
