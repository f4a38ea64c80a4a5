/** Jobs on the sandbox clock, downloads in every format, failures and key isolation. */
import { unzipSync, strFromU8 } from 'fflate';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { client, envelope, ManualClock, OTHER_KEY, sandbox } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let box: RunningSandbox;
let call: ReturnType<typeof client>;
const clock = new ManualClock();

beforeAll(async () => {
  box = await sandbox({ jobSeconds: 4, faults: true, clock: clock.now });
  call = client(box);
});
afterAll(() => box.close());

async function completedGeneration(body: Record<string, unknown>): Promise<string> {
  const submitted = await call('POST', '/documents/generate', { body });
  expect(submitted.status).toBe(202);
  clock.advance(4_000);
  expect((await call('GET', `/jobs/${submitted.body.jobId}`)).body.status).toBe('completed');
  return submitted.body.jobId as string;
}

describe('generation job lifecycle', () => {
  it('moves queued → running → completed on the clock, with 409 not_ready before', async () => {
    const submitted = await call('POST', '/documents/generate', { body: { standard: 'gdpr', documentType: 'framework_reference' } });
    expect(submitted.status).toBe(202);
    const { jobId } = submitted.body;
    expect(jobId).toMatch(UUID);
    expect(submitted.body).toMatchObject({ status: 'queued', poll: `/jobs/${jobId}`, document: `/documents/${jobId}`, estimatedSeconds: 4 });
    expect((await call('GET', `/jobs/${jobId}`)).body.status).toBe('queued');
    const early = await call('GET', `/documents/${jobId}`);
    envelope(early, 409, 'not_ready');
    expect(early.body.error.jobId).toBe(jobId);
    clock.advance(1_000);
    expect((await call('GET', `/jobs/${jobId}`)).body.status).toBe('running');
    clock.advance(3_000);
    const done = await call('GET', `/jobs/${jobId}`);
    expect(done.body).toMatchObject({ jobId, status: 'completed', kind: 'generation', progress: 1 });
    expect(done.body.error).toBeUndefined();
  });

  it('downloads json with sections and the sandbox watermark, deterministic for the same input', async () => {
    const input = { framework: 'gdpr', organisation: { name: 'Acme Health Ltd', country: 'Ireland' } };
    const first = await completedGeneration(input);
    const second = await completedGeneration(input);
    const a = await call('GET', `/documents/${first}`);
    const b = await call('GET', `/documents/${second}?format=json`);
    expect(a.headers.get('content-type')).toContain('application/json');
    expect(a.body).toMatchObject({ jobId: first, mode: 'sandbox', type: 'framework_reference' });
    expect(a.body.watermark).toMatch(/SANDBOX/);
    expect(a.body.sections.length).toBeGreaterThan(0);
    const strip = (doc: Record<string, unknown>) => ({ ...doc, jobId: undefined, generatedAt: undefined });
    expect(strip(a.body)).toEqual(strip(b.body));
  });

  it('downloads md, pdf and docx that carry the title and the watermark', async () => {
    const jobId = await completedGeneration({ framework: 'gdpr' });
    const json = (await call('GET', `/documents/${jobId}`)).body;
    const md = await call('GET', `/documents/${jobId}?format=md`);
    expect(md.headers.get('content-type')).toContain('text/markdown');
    // Markdown escapes punctuation such as `_`: compare the text with the escapes removed.
    const mdText = md.text.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1');
    expect(mdText).toContain(json.title);
    expect(mdText).toContain(json.watermark);

    const pdf = await call('GET', `/documents/${jobId}?format=pdf`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toMatch(/attachment; filename=".+\.pdf"/);
    const { text } = await extractText(await getDocumentProxy(pdf.bytes), { mergePages: true });
    const flat = (s: string) => s.replace(/\s+/g, ' ');
    expect(flat(text)).toContain(flat(json.title));
    expect(flat(text)).toContain(flat(json.watermark));

    const docx = await call('GET', `/documents/${jobId}?format=docx`);
    expect(docx.headers.get('content-type')).toContain('wordprocessingml');
    const files = unzipSync(docx.bytes);
    const xml = Object.entries(files)
      .filter(([name]) => name.startsWith('word/') && name.endsWith('.xml'))
      .map(([, data]) => strFromU8(data).replace(/<[^>]+>/g, ''))
      .join(' ');
    expect(xml).toContain(json.title.replace(/&/g, '&amp;'));
    expect(xml).toContain(json.watermark.replace(/&/g, '&amp;'));
  });
});

describe('failures and isolation', () => {
  it('reports a failed job with error {code, message} and answers its download 409 generation_failed', async () => {
    const submitted = await call('POST', '/documents/generate', { body: { framework: 'gdpr' }, headers: { 'x-sandbox-fault': 'job-fail' } });
    expect(submitted.status).toBe(202);
    clock.advance(4_000);
    const job = await call('GET', `/jobs/${submitted.body.jobId}`);
    expect(job.body.status).toBe('failed');
    expect(job.body.error).toEqual({ code: 'generation_failed', message: expect.any(String) });
    envelope(await call('GET', `/documents/${submitted.body.jobId}?format=pdf`), 409, 'generation_failed');
  });

  it("answers another key's job exactly like an unknown one", async () => {
    const jobId = await completedGeneration({ framework: 'gdpr' });
    const unknown = await call('GET', '/jobs/00000000-0000-4000-8000-000000000000');
    const foreign = await call('GET', `/jobs/${jobId}`, { key: OTHER_KEY });
    envelope(foreign, 404, 'job_not_found');
    expect({ ...foreign.body.error, requestId: '' }).toEqual({ ...unknown.body.error, requestId: '' });
    envelope(await call('GET', `/documents/${jobId}`, { key: OTHER_KEY }), 404, 'job_not_found');
  });
});
