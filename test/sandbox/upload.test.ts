/**
 * Mapping uploads over HTTP: real DOCX, PDF, XLSX and PPTX files generated here (our own DOCX and
 * PDF renderers, exceljs and pptxgenjs), sent as multipart through the real client's mapDocument
 * with `file`; the mapping must reflect what the files say. Plus the limits: over 10 MB is a 413
 * envelope, a kind the service does not read is a clear 400, and the client refuses both before
 * sending anything.
 */
import PptxGenJS from 'pptxgenjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComplianceClient, ComplianceValidationError, type MappingReportModel } from '../../api/node/index.js';
import type { DocumentModel } from '../../sandbox/documentModel.js';
import { newWorkbook } from '../formats/exceljs.js';
import { renderDocx, renderPdf } from '../../sandbox/formats/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { loadPolicies, loadUnrelated } from '../fixtures/policies/corpus.js';
import { client, envelope, LIVE_KEY, sandbox } from './helpers.js';

const FRAMEWORK = 'hipaa-security';
const TEN_MB = 10 * 1024 * 1024;

/** The access control policy and the incident response plan as sections of paragraphs. */
interface Section {
  heading: string;
  paragraphs: string[];
}

function sectionsOf(markdown: string): Section[] {
  const sections: Section[] = [];
  for (const block of markdown.split(/\n{2,}/)) {
    const heading = /^#{1,6}\s+(.+)$/.exec(block.trim());
    if (heading) sections.push({ heading: heading[1]!, paragraphs: [] });
    else if (block.trim()) {
      if (!sections.length) sections.push({ heading: 'Policy', paragraphs: [] });
      sections[sections.length - 1]!.paragraphs.push(block.replace(/^\s*[-*]\s+/gm, '').replace(/\s*\n\s*/g, ' ').trim());
    }
  }
  return sections.filter((s) => s.paragraphs.length);
}

const policies = loadPolicies();
const chosen = ['access-control-policy.md', 'incident-response-plan.md'].map((file) => policies.find((p) => p.file === file)!);
const policyText = chosen.map((p) => p.content).join('\n\n');
const policySections = chosen.flatMap((p) => sectionsOf(p.content));
const unrelatedSections = sectionsOf(loadUnrelated('football-match-report.md'));

function model(title: string, sections: Section[]): DocumentModel {
  return { title, meta: [['Owner', 'Security team']], sections: sections.map((s) => ({ heading: s.heading, paragraphs: s.paragraphs })) };
}

async function xlsx(sections: Section[]): Promise<Uint8Array> {
  const book = newWorkbook();
  const sheet = book.addWorksheet('Policy statements');
  sheet.addRow(['Section', 'Statement']);
  for (const section of sections) for (const paragraph of section.paragraphs) sheet.addRow([section.heading, paragraph]);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

async function pptx(sections: Section[]): Promise<Uint8Array> {
  const deck = new PptxGenJS();
  for (const section of sections) {
    const slide = deck.addSlide();
    slide.addText(section.heading, { x: 0.5, y: 0.3, w: 9, h: 0.8, fontSize: 24 });
    slide.addText(section.paragraphs.join('\n'), { x: 0.5, y: 1.2, w: 9, h: 4, fontSize: 10 });
  }
  return (await deck.write({ outputType: 'uint8array' })) as Uint8Array;
}

const formats: Array<[kind: string, filename: string, make: (sections: Section[], title: string) => Promise<Uint8Array> | Uint8Array]> = [
  ['DOCX', 'policies.docx', (sections, title) => renderDocx(model(title, sections))],
  ['PDF', 'policies.pdf', (sections, title) => renderPdf(model(title, sections))],
  ['XLSX', 'policies.xlsx', (sections) => xlsx(sections)],
  ['PPTX', 'policies.pptx', (sections) => pptx(sections)],
];

let box: RunningSandbox;
let compliance: ComplianceClient;
let textReport: MappingReportModel;
const covered = (report: MappingReportModel) => new Set(report.controls.filter((c) => c.status === 'covered').map((c) => c.id));

beforeAll(async () => {
  box = await sandbox();
  compliance = new ComplianceClient({ apiKey: LIVE_KEY, baseUrl: box.baseUrl, maxRetries: 0 });
  // What the same policies score as plain text: the reference each file's mapping must reflect.
  textReport = (await compliance.mapAndDownload({ framework: FRAMEWORK, content: policyText })).report;
});
afterAll(async () => {
  await box.close();
});

describe('mapping uploads', () => {
  it.each(formats)('maps a real %s file by what it says', async (kind, filename, make) => {
    const data = await make(policySections, 'Access control and incident response');
    const { report } = await compliance.mapAndDownload({ framework: FRAMEWORK, file: { data, filename } });
    const fromText = covered(textReport);
    const fromFile = covered(report);
    expect(fromText.size).toBeGreaterThan(3);
    // The file's mapping finds (nearly) the controls its text evidences, and no unrelated ones.
    const shared = [...fromFile].filter((id) => fromText.has(id));
    expect(shared.length).toBeGreaterThanOrEqual(Math.ceil(fromText.size * 0.8));
    expect(fromFile.size - shared.length).toBeLessThanOrEqual(1);
    expect(report.coverage).toBeGreaterThan(10);
    // Quotes come from the file's text (a spreadsheet row is quoted whole: "section | statement").
    const quotes = report.controls.flatMap((c) =>
      c.evidence.map((e) => e.quote.replace(/…$/, '').replace(/^[^|]*\| /, '').slice(0, 30)),
    );
    expect(quotes.length).toBeGreaterThan(0);
    const flat = policyText.replace(/\s+/g, ' ');
    expect(quotes.filter((q) => flat.includes(q.replace(/\s+/g, ' '))).length).toBeGreaterThanOrEqual(Math.ceil(quotes.length * 0.8));

    // Slides and sheets are the sections evidence is located in.
    const sections = report.controls.flatMap((c) => c.evidence.map((e) => e.location.section ?? ''));
    if (kind === 'PPTX') for (const section of sections) expect(section).toMatch(/^Slide \d+$/);
    if (kind === 'XLSX') for (const section of sections) expect(section).toBe('Sheet: Policy statements');

    const unrelated = await make(unrelatedSections, 'Match report');
    const other = await compliance.mapAndDownload({ framework: FRAMEWORK, file: { data: unrelated, filename } });
    expect(other.report.coverage).toBeLessThanOrEqual(5);
  });

  it('answers an upload over 10 MB with the 413 envelope, and the client refuses it before sending', async () => {
    const call = client(box, LIVE_KEY);
    const before = (await compliance.getBilling()).balanceTokens;
    const big = new Uint8Array(TEN_MB + 1).fill(0x20);
    big.set(new TextEncoder().encode('Access control policy. '));
    const form = new FormData();
    form.set('framework', FRAMEWORK);
    form.set('file', new Blob([big], { type: 'text/plain' }), 'policy.txt');
    const error = envelope(await call('POST', '/documents/map', { rawBody: form }), 413, 'upload_too_large');
    expect(error.message).toMatch(/10,485,760/);

    const refused = await compliance.mapDocument({ framework: FRAMEWORK, file: { data: big, filename: 'policy.txt' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ComplianceValidationError);
    expect(refused).toMatchObject({ code: 'upload_too_large' });
    expect((await compliance.getBilling()).balanceTokens).toBe(before);
  });

  it.each([
    ['image.png', 'image/png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])],
    ['legacy.doc', 'application/msword', new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0])],
  ])('answers %s with a clear 400 naming the accepted kinds', async (filename, type, data) => {
    const form = new FormData();
    form.set('framework', FRAMEWORK);
    form.set('file', new Blob([data], { type }), filename);
    const answer = await client(box, LIVE_KEY)('POST', '/documents/map', { rawBody: form });
    expect(answer.status).toBe(400);
    const error = envelope(answer, 400, answer.body.error.code);
    expect(error.code).toBe('unsupported_file_type');
    expect(`${error.message} ${error.hint}`).toMatch(/docx/i);
    expect(`${error.message} ${error.hint}`).toMatch(/pdf/i);
    await expect(compliance.mapDocument({ framework: FRAMEWORK, file: { data, filename } })).rejects.toBeInstanceOf(ComplianceValidationError);
  });

  it('answers a file that claims a kind it is not with a clear 400', async () => {
    const form = new FormData();
    form.set('framework', FRAMEWORK);
    form.set('file', new Blob([new TextEncoder().encode('This is not a Word document at all.')]), 'policy.docx');
    const answer = await client(box, LIVE_KEY)('POST', '/documents/map', { rawBody: form });
    expect(answer.status).toBe(400);
    const error = envelope(answer, 400, 'unreadable_file');
    expect(error.message).toMatch(/Word document \(\.docx\)/);
  });
});
