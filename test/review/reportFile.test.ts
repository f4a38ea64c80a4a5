/** The one reader of report files (review/node/report.ts): every error names the file and the fix. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReviewReport, evaluateGate, REPORT_SCHEMA } from '../../review/index.js';
import { loadBaseline, readReportFile } from '../../review/node/index.js';
import { report } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'report-file-'));
const write = (name: string, data: unknown) => {
  writeFileSync(join(dir, name), typeof data === 'string' ? data : JSON.stringify(data));
  return name;
};
const gate = evaluateGate(report({ A: 'covered', B: 'missing' }), { framework: 'nist-csf-2', threshold: 0, waivers: [], today: '2026-06-01', failOn: 'coverage' });
const review = buildReviewReport([gate], { generatedAt: '2026-06-01T00:00:00Z' });

describe('readReportFile', () => {
  it('reads a review report: the report, its gap keys and coverage', async () => {
    const file = await readReportFile(write('ok.json', review), { role: 'report', root: dir });
    expect(file.report?.frameworks).toHaveLength(1);
    expect(file.gapKeys).toEqual(new Set(['nist-csf-2/B']));
    expect(file.coverage.get('nist-csf-2')).toBe(gate.effectiveCoverage);
  });

  it('refuses a newer schemaVersion, naming the file and the fix', async () => {
    const path = write('future.json', { ...review, schemaVersion: 2 });
    await expect(readReportFile(path, { role: 'report', root: dir })).rejects.toMatchObject({
      code: 'invalid_report',
      message: 'report future.json: schema version 2; this version reads up to 1',
      hint: expect.stringContaining('Upgrade'),
    });
    // The baseline path checks it too (it used to be read without the version check in one place).
    await expect(loadBaseline(join(dir, path))).rejects.toMatchObject({ message: expect.stringContaining('schema version 2') });
  });

  it('missing, not JSON, not a report: each a clear error with the file name', async () => {
    await expect(readReportFile('nope.json', { role: '--report', root: dir })).rejects.toMatchObject({ message: '--report nope.json: no such file', hint: expect.stringContaining('report.json') });
    await expect(readReportFile(write('bad.json', '{'), { role: '--report', root: dir })).rejects.toMatchObject({ message: expect.stringMatching(/^--report bad\.json: not valid JSON/) });
    await expect(readReportFile(write('other.json', { hello: 1 }), { role: '--report', root: dir })).rejects.toMatchObject({ message: `--report other.json: not a compliance review report (schema ${REPORT_SCHEMA}, version 1)` });
    await expect(readReportFile(write('broken.json', { ...review, frameworks: [{ gaps: 1 }] }), { role: 'report', root: dir })).rejects.toMatchObject({ message: expect.stringContaining('(frameworks.0.framework:') });
  });

  it('a raw mapping report is a baseline only', async () => {
    const raw = write('raw.json', { framework: { slug: 'nist-csf-2' }, gaps: [{ controlId: 'PR.AT-01' }] });
    expect((await readReportFile(raw, { role: 'baseline', root: dir, acceptMappingReports: true })).gapKeys).toEqual(new Set(['nist-csf-2/PR.AT-01']));
    await expect(readReportFile(raw, { role: 'report', root: dir })).rejects.toMatchObject({ code: 'invalid_report' });
  });
});
