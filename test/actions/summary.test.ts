/** The job summary stays under GitHub's 1 MiB per step: a shortened rendering first, then a cut at a line. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendSummary, cutToBytes, SUMMARY_LIMIT_BYTES } from '../../actions/shared/runtime/summary.js';

let dir: string;
let file: string;
const saved = process.env.GITHUB_STEP_SUMMARY;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'summary-'));
  file = join(dir, 'summary.md');
  writeFileSync(file, '');
  process.env.GITHUB_STEP_SUMMARY = file;
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  if (saved === undefined) delete process.env.GITHUB_STEP_SUMMARY;
  else process.env.GITHUB_STEP_SUMMARY = saved;
});

const rows = (count: number) => Array.from({ length: count }, (_, i) => `| gap ${i} | ${'é'.repeat(40)} |`).join('\n');

describe('appendSummary', () => {
  it('writes a section that fits as it is', () => {
    expect(appendSummary('## Report\n\nall good')).toBe('full');
    expect(readFileSync(file, 'utf8')).toBe('## Report\n\nall good\n');
  });

  it('uses the shortened rendering when the full one is over the limit, and says where the rest is', () => {
    const full = rows(30_000);
    expect(Buffer.byteLength(full)).toBeGreaterThan(SUMMARY_LIMIT_BYTES);
    expect(appendSummary(full, { shortened: () => rows(10), moreAt: 'compliance-report/report.md' })).toBe('shortened');
    const written = readFileSync(file, 'utf8');
    expect(written).toContain('| gap 9 |');
    expect(written).not.toContain('| gap 10 |');
    expect(written).toContain('this is the short version. The complete one is in compliance-report/report.md.');
  });

  it('cuts at a line boundary when even the short version does not fit, leaving room for later sections', () => {
    writeFileSync(file, 'x'.repeat(100_000));
    expect(appendSummary(rows(30_000), { shortened: () => rows(20_000) })).toBe('cut');
    const size = statSync(file).size;
    expect(size).toBeLessThanOrEqual(SUMMARY_LIMIT_BYTES - 16 * 1024);
    expect(readFileSync(file, 'utf8')).toMatch(/\|\n\n> … cut here: the job summary limit is 1 MiB\.\n$/);
    expect(appendSummary('## Gap issues\n', { final: true })).toBe('full');
    expect(statSync(file).size).toBeLessThanOrEqual(SUMMARY_LIMIT_BYTES);
  });

  it('cutToBytes never splits a multi-byte character or a line', () => {
    const cut = cutToBytes('ééé\néééé\n', 9);
    expect(cut).toBe('ééé\n');
  });
});
