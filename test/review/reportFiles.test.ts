/**
 * review/publish.ts's files of a report: each rendered format under its name and media type, and
 * the service's pdf and docx renderings downloaded per mapping job (against the sandbox), a refused
 * download listed as a failure, and none attempted without a connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportFiles, parseConfig, parseReportFormats, readDeclarations, renderReportFiles, renderReportMarkdown, runReview, type ReviewReport } from '../../review/index.js';
import { HIPAA_CONFIG } from '../actions/harness.js';
import { apiClient, LIVE_KEY, policyText, recordingClient, sandbox } from '../sandbox/helpers.js';
import { renderReportSarif } from '../../review/renderSarif.js';
import type { RunningSandbox } from '../../sandbox/index.js';

let box: RunningSandbox;
let report: ReviewReport;
const client = () => apiClient(box, LIVE_KEY);
beforeAll(async () => {
  box = await sandbox({ rateLimitPerMinute: 100_000 });
  const files = [{ path: 'policies/access.md', content: policyText('access control') }];
  report = (await runReview(client(), { config: parseConfig(HIPAA_CONFIG(0)), files, readDeclarations, today: '2026-01-05', event: { kind: 'push' }, sync: 'run', checkUpdates: false })).report;
});
afterAll(async () => {
  await box?.close();
});

describe('renderReportFiles', () => {
  it('names each rendered format and gives its media type; pdf and docx are not rendered here', () => {
    const files = renderReportFiles(report, ['md', 'json', 'html', 'sarif', 'junit', 'pdf', 'docx']);
    expect(files.map(({ format, name, mediaType }) => [format, name, mediaType])).toEqual([
      ['md', 'report.md', 'text/markdown; charset=utf-8'],
      ['json', 'report.json', 'application/json'],
      ['html', 'report.html', 'text/html; charset=utf-8'],
      ['sarif', 'report.sarif', 'application/sarif+json'],
      ['junit', 'report.junit.xml', 'application/xml'],
    ]);
    expect(JSON.parse(files[1]?.data as string)).toEqual(report);
    expect(files[3]?.data).toContain('"version": "2.1.0"');
  });

  it('report.md is the full Markdown rendering', () => {
    const [md] = renderReportFiles(report, ['md']);
    expect(md?.data).toBe(renderReportMarkdown(report, { detail: 'full' }));
    expect(md?.data).not.toBe(renderReportMarkdown(report, { detail: 'summary' }));
  });

  it('report.md carries the gate notes it is given', () => {
    const [md] = renderReportFiles(report, ['md'], { gateNotes: ['A note from the gate.'] });
    expect(md?.data).toContain('A note from the gate.');
  });

  it('report.sarif points at the compliance.yml it is given, at the line of each framework', () => {
    const context = { configPath: 'config/compliance.yml', configText: `# ours\n${HIPAA_CONFIG(0)}` };
    const [sarif] = renderReportFiles(report, ['sarif'], context);
    expect(sarif?.data).toBe(renderReportSarif(report, context));
    expect(sarif?.data).not.toBe(renderReportSarif(report, { configPath: 'config/compliance.yml' }));
    expect(sarif?.data).toContain('"uri": "config/compliance.yml"');
  });

  it('a format list names each once; an unknown one is refused naming the field and the choices', () => {
    expect(parseReportFormats([' MD ', 'json', '', 'md', 'pdf'], 'formats')).toEqual(['md', 'json', 'pdf']);
    expect(() => parseReportFormats(['md', 'xlsx'], 'formats')).toThrow(expect.objectContaining({ code: 'invalid_config', message: 'formats: "xlsx" is not a report format', hint: 'Use any of md, json, html, sarif, junit, pdf, docx (comma-separated).' }));
  });
});

describe('buildReportFiles', () => {
  it('without pdf or docx nothing is downloaded: the rendered files alone', async () => {
    const built = await buildReportFiles(undefined, report, ['json']);
    expect(built).toEqual({ files: renderReportFiles(report, ['json']), failures: [] });
  });

  it('without a connection each download is a failure saying so', async () => {
    const built = await buildReportFiles(undefined, report, ['md', 'pdf', 'docx']);
    expect(built.files.map((file) => file.name)).toEqual(['report.md']);
    expect(built.failures).toEqual([
      { format: 'pdf', framework: '', message: "The pdf report is the service's rendering: it needs a connection, and this run had none." },
      { format: 'docx', framework: '', message: "The docx report is the service's rendering: it needs a connection, and this run had none." },
    ]);
  });

  it('downloads each job\'s pdf and docx after the rendered files, numbered when a framework has several jobs', async () => {
    const [framework] = report.frameworks;
    if (!framework?.jobIds[0]) throw new Error('the review mapped nothing');
    const key = framework.framework.key;
    const single = await buildReportFiles(client(), { ...report, frameworks: [{ ...framework, jobIds: [framework.jobIds[0]] }] }, ['json', 'pdf']);
    expect(single.failures).toEqual([]);
    expect(single.files.map(({ format, name, mediaType }) => [format, name, mediaType])).toEqual([
      ['json', 'report.json', 'application/json'],
      ['pdf', `${key}.pdf`, 'application/pdf'],
    ]);
    expect(single.files[1]?.data).toBeInstanceOf(Uint8Array);
    const several = await buildReportFiles(client(), { ...report, frameworks: [{ ...framework, jobIds: [framework.jobIds[0], framework.jobIds[0]] }] }, ['docx']);
    expect(several.files.map(({ name, mediaType }) => [name, mediaType])).toEqual([
      [`${key}-1.docx`, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      [`${key}-2.docx`, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ]);
  });

  it('a download the service refuses is listed as a failure, and the rest goes on', async () => {
    const [framework] = report.frameworks;
    if (!framework?.jobIds[0]) throw new Error('the review mapped nothing');
    const built = await buildReportFiles(client(), { ...report, frameworks: [{ ...framework, jobIds: ['job_unknown', framework.jobIds[0]] }] }, ['pdf']);
    expect(built.files.map((file) => file.name)).toEqual([`${framework.framework.key}-2.pdf`]);
    expect(built.failures).toEqual([{ format: 'pdf', framework: framework.framework.name, message: expect.stringMatching(new RegExp(`^Could not download the pdf report of ${framework.framework.name}: .+`)) }]);
  });

  it('lets an error that is not the service’s through', async () => {
    const bug = new TypeError('a bug');
    const { client: broken } = recordingClient(box, LIVE_KEY, { downloadDocument: () => Promise.reject(bug) });
    await expect(buildReportFiles(broken, report, ['pdf'])).rejects.toBe(bug);
  });
});
