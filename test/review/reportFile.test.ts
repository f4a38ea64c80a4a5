/** The one reader of report files (review/node/report.ts): every error names the file and the fix. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReviewReport, evaluateGate, REPORT_SCHEMA } from '../../review/index.js';
import { loadBaseline, readReportFile } from '../../review/node/index.js';
import { reviewReportShape } from '../../review/node/report.js';
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

  it('every read or parse failure is invalid_report; a file that cannot be read says why', async () => {
    mkdirSync(join(dir, 'a-directory.json'));
    await expect(readReportFile('a-directory.json', { role: '--report', root: dir })).rejects.toMatchObject({ code: 'invalid_report', message: expect.stringMatching(/^--report a-directory\.json: EISDIR/) });
    await expect(readReportFile('nope.json', { role: '--report', root: dir })).rejects.toMatchObject({ code: 'invalid_report' });
    await expect(readReportFile(write('bad2.json', '{'), { role: '--report', root: dir })).rejects.toMatchObject({ code: 'invalid_report' });
    await expect(readReportFile(write('null.json', 'null'), { role: '--report', root: dir })).rejects.toMatchObject({ code: 'invalid_report', message: expect.stringContaining('not a compliance review report') });
  });

  it('a relative path without a root is read from the working directory', async () => {
    await expect(readReportFile('no-such-report-here.json', { role: '--report' })).rejects.toMatchObject({ message: '--report no-such-report-here.json: no such file' });
  });

  it('only our schema with a numeric version above ours is refused as newer', async () => {
    const notOurs = write('not-ours.json', { schema: 'someone-else', schemaVersion: 9 });
    await expect(readReportFile(notOurs, { role: 'report', root: dir })).rejects.toMatchObject({ message: expect.stringContaining('not a compliance review report') });
    const textVersion = write('text-version.json', { ...review, schemaVersion: '3' });
    await expect(readReportFile(textVersion, { role: 'report', root: dir })).rejects.toMatchObject({ message: expect.stringContaining('not a compliance review report') });
  });

  it('coverage per framework is the effective coverage, else the coverage, else none', async () => {
    const [entry] = review.frameworks;
    const frameworks = [
      { ...entry, framework: { ...entry!.framework, key: 'effective' }, coverage: 40, effectiveCoverage: 55 },
      { ...entry, framework: { ...entry!.framework, key: 'plain' }, coverage: 40, effectiveCoverage: undefined },
      { ...entry, framework: { ...entry!.framework, key: 'none' }, coverage: undefined, effectiveCoverage: undefined },
    ];
    const file = await readReportFile(write('coverage.json', { ...review, frameworks }), { role: 'report', root: dir });
    expect([...file.coverage]).toEqual([['effective', 55], ['plain', 40]]);
  });

  it('a broken review report is not taken for a mapping report, even where those are accepted', async () => {
    const broken = write('broken-baseline.json', { ...review, frameworks: [{ gaps: 1 }] });
    await expect(readReportFile(broken, { role: 'baseline', root: dir, acceptMappingReports: true })).rejects.toMatchObject({ message: expect.stringContaining('not a compliance review report (schema') });
    const keyless = write('keyless-gap.json', { ...review, frameworks: [{ ...review.frameworks[0], gaps: [{ controlId: 'B' }] }] });
    await expect(readReportFile(keyless, { role: 'report', root: dir })).rejects.toMatchObject({ message: expect.stringContaining('(frameworks.0.gaps.0.key:') });
  });

  it('a baseline that is neither report names the file and the fix', async () => {
    const other = write('neither.json', { hello: 1 });
    await expect(readReportFile(other, { role: 'baseline', root: dir, acceptMappingReports: true, hint: 'Make one.' })).rejects.toMatchObject({
      code: 'invalid_report',
      message: 'baseline neither.json: the baseline is neither a review report (--json output or report.json) nor a mapping report',
      hint: 'Make one.',
    });
  });
});

// readReportFile uses the shape built once per process; built fresh here, so a change to it is seen.
describe('reviewReportShape', () => {
  const framework = { framework: { key: 'nist-csf-2', name: 'NIST CSF 2.0' }, gaps: [{ key: 'nist-csf-2/B', controlId: 'B' }] };
  const shaped = (frameworks: unknown[]) => reviewReportShape().safeParse({ schema: REPORT_SCHEMA, schemaVersion: 1, frameworks }).success;
  it('takes a report whose frameworks name themselves and their gaps, and refuses one that leaves out any of these', () => {
    expect(shaped([framework])).toBe(true);
    expect(reviewReportShape().safeParse({ schemaVersion: 1, frameworks: [framework] }).success).toBe(false);
    expect(shaped([{ gaps: [] }])).toBe(false);
    expect(shaped([{ ...framework, framework: { key: 'nist-csf-2' } }])).toBe(false);
    expect(shaped([{ ...framework, gaps: [{ key: 'nist-csf-2/B' }] }])).toBe(false);
  });
});
