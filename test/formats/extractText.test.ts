import { describe, expect, it } from 'vitest';
import { zipSync, strToU8 } from 'fflate';
import PptxGenJS from 'pptxgenjs';
import { detectUploadKind, extractText, renderDocx, renderPdf, UploadRejection } from '../../sandbox/formats/index.js';
import { newWorkbook } from './exceljs.js';
import { BODY_SENTENCE, samplePolicy, WATERMARK } from './sampleModels.js';

async function rejection(upload: Parameters<typeof extractText>[0]): Promise<UploadRejection> {
  const error = await extractText(upload).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UploadRejection);
  return error as UploadRejection;
}

async function workbook(): Promise<Uint8Array> {
  const book = newWorkbook();
  const controls = book.addWorksheet('Controls');
  controls.addRow(['Control', 'Evidence', 'Reviewed', 'Score']);
  controls.addRow(['PR.AA-01', 'Access is reviewed quarterly by system owners.', new Date(Date.UTC(2025, 2, 1)), 0.75]);
  controls.addRow([]);
  controls.getCell('A4').value = 'DE.CM-01';
  controls.getCell('C4').value = { richText: [{ text: 'Networks are ' }, { text: 'monitored', font: { bold: true } }] };
  controls.getCell('D4').value = true;
  const risks = book.addWorksheet('Risk register');
  risks.addRow(['Ransomware & backups', 'Backups are encrypted and tested monthly.']);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

async function presentation(): Promise<Uint8Array> {
  const deck = new PptxGenJS();
  deck.addSlide().addText('Security awareness training', { x: 1, y: 1, w: 8, h: 1 });
  const second = deck.addSlide();
  second.addText('Phishing simulations run every quarter.', { x: 1, y: 1, w: 8, h: 1 });
  second.addText([{ text: 'Reported incidents are triaged within 24 hours.', options: { bullet: true } }], { x: 1, y: 2, w: 8, h: 1 });
  deck.addSlide().addTable([[{ text: 'Control' }, { text: 'Owner' }], [{ text: 'PR.AT-01' }, { text: 'HR' }]], { x: 1, y: 1, w: 8 });
  return (await deck.write({ outputType: 'uint8array' })) as Uint8Array;
}

describe('extractText', () => {
  it('reads a PDF rendered by renderPdf, every page', async () => {
    const { text, kind } = await extractText({ data: renderPdf(samplePolicy(30)), filename: 'policy.pdf', contentType: 'application/pdf' });
    expect(kind).toBe('pdf');
    expect(text).toContain(BODY_SENTENCE);
    expect(text).toContain(WATERMARK);
    expect(text.replace(/\s+/g, ' ')).toContain('Requirement 30: reviews are performed quarterly');
  });

  it('reads an XLSX written by exceljs: sheets by name, rows as tab-separated lines, dates and numbers', async () => {
    const { text, kind } = await extractText({ data: await workbook(), filename: 'controls.xlsx' });
    expect(kind).toBe('xlsx');
    expect(text).toBe(
      [
        'Sheet: Controls',
        'Control\tEvidence\tReviewed\tScore',
        'PR.AA-01\tAccess is reviewed quarterly by system owners.\t2025-03-01\t0.75',
        'DE.CM-01\t\tNetworks are monitored\tTRUE',
        '',
        'Sheet: Risk register',
        'Ransomware & backups\tBackups are encrypted and tested monthly.',
      ].join('\n'),
    );
  });

  it('reads a PPTX written by pptxgenjs: slides in order, tables as rows', async () => {
    const { text, kind } = await extractText({ data: await presentation(), filename: 'training.pptx' });
    expect(kind).toBe('pptx');
    expect(text).toBe(
      [
        'Slide 1',
        'Security awareness training',
        '',
        'Slide 2',
        'Phishing simulations run every quarter.',
        'Reported incidents are triaged within 24 hours.',
        '',
        'Slide 3',
        'Control\tOwner',
        'PR.AT-01\tHR',
      ].join('\n'),
    );
  });

  it('reads UTF-8 and UTF-16 text, dropping the byte order mark and normalising line ends', async () => {
    const utf8 = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('Caf\u00e9 policy\r\nLine two\r\n')]);
    expect(await extractText({ data: utf8, filename: 'notes.md' })).toEqual({ text: 'Caf\u00e9 policy\nLine two', kind: 'text' });
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from('Hello \u00fc', 'utf16le')]);
    expect((await extractText({ data: utf16, filename: 'notes.txt' })).text).toBe('Hello \u00fc');
  });

  it('rejects non-UTF-8 text as unreadable', async () => {
    const latin1 = Buffer.from('Caf\u00e9 policy', 'latin1');
    const error = await rejection({ data: latin1, filename: 'notes.txt' });
    expect(error.code).toBe('unreadable_file');
    expect(error.message).toContain('UTF-8');
    expect(error.hint).toContain('UTF-8');
  });

  it('rejects a corrupt zip and a truncated PDF as unreadable', async () => {
    const docx = renderDocx(samplePolicy());
    const corrupt = docx.slice(0, docx.length - 200);
    expect((await rejection({ data: corrupt, filename: 'policy.docx' })).code).toBe('unreadable_file');
    const mangled = docx.slice();
    mangled.fill(0x41, 200, 1200);
    expect((await rejection({ data: mangled, filename: 'policy.docx' })).code).toBe('unreadable_file');
    const pdf = renderPdf(samplePolicy());
    expect((await rejection({ data: pdf.slice(0, 300), filename: 'policy.pdf' })).code).toBe('unreadable_file');
  });

  it('rejects a renamed executable and legacy Office names as unsupported, with a re-save hint', async () => {
    const executable = new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00]);
    const renamed = await rejection({ data: executable, filename: 'policy.docx' });
    expect(renamed.code).toBe('unsupported_file_type');
    expect(renamed.message).toContain('executable');
    expect((await rejection({ data: executable, filename: 'setup.exe' })).code).toBe('unsupported_file_type');
    const legacy = await rejection({ data: new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), filename: 'budget.xls' });
    expect(legacy.code).toBe('unsupported_file_type');
    expect(legacy.hint).toContain('.xlsx');
    expect(legacy.hint).toContain('.docx');
    const oleAsDocx = await rejection({ data: new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), filename: 'policy.docx' });
    expect(oleAsDocx.code).toBe('unsupported_file_type');
    expect(oleAsDocx.message).toContain('password-protected');
  });

  it('names the real kind of a package with the wrong extension, and refuses plain zip archives', async () => {
    const error = await rejection({ data: await workbook(), filename: 'controls.docx' });
    expect(error.code).toBe('unsupported_file_type');
    expect(error.message).toContain('Excel workbook');
    const archive = zipSync({ 'a.txt': strToU8('hello') });
    expect((await rejection({ data: archive, filename: 'bundle.docx' })).code).toBe('unsupported_file_type');
  });

  it('refuses zip bombs and oversized uploads before inflating them', async () => {
    // 60 MB of zeros compresses to about 60 KB.
    const bomb = zipSync({
      '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
      '_rels/.rels': strToU8('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
      'word/document.xml': new Uint8Array(60 * 1024 * 1024),
    });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const error = await rejection({ data: bomb, filename: 'bomb.docx' });
    expect(error.code).toBe('upload_too_large');
    expect((await rejection({ data: new Uint8Array(10 * 1024 * 1024 + 1), filename: 'big.txt' })).code).toBe('upload_too_large');
  });

  it('refuses XML with a document type declaration (entity expansion)', async () => {
    const xml = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]><w:document xmlns:w="x"><w:body><w:p><w:r><w:t>&lol;</w:t></w:r></w:p></w:body></w:document>';
    const docx = zipSync({
      '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
      '_rels/.rels': strToU8('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
      'word/document.xml': strToU8(xml),
    });
    expect((await rejection({ data: docx, filename: 'entities.docx' })).code).toBe('unreadable_file');
  });

  it('rejects empty files and documents without text', async () => {
    expect((await rejection({ data: new Uint8Array(), filename: 'empty.txt' })).code).toBe('unreadable_file');
    const blank = renderDocx({ title: ' ', meta: [], sections: [] });
    expect((await rejection({ data: blank, filename: 'blank.docx' })).message).toContain('No text');
  });
});

describe('detectUploadKind', () => {
  it('goes by extension, case-insensitively, then by content type, then by PDF magic', () => {
    expect(detectUploadKind('Policy.DOCX')).toBe('docx');
    expect(detectUploadKind('notes.markdown')).toBe('text');
    expect(detectUploadKind('data.csv', 'text/csv')).toBe('text');
    expect(detectUploadKind('upload', 'application/vnd.openxmlformats-officedocument.presentationml.presentation; charset=binary')).toBe('pptx');
    expect(detectUploadKind('upload', undefined, new TextEncoder().encode('%PDF-1.7\n'))).toBe('pdf');
    expect(() => detectUploadKind('upload')).toThrow(UploadRejection);
  });

  it('rejects legacy and unknown types with the accepted kinds in the hint', () => {
    for (const name of ['a.doc', 'a.ppt', 'a.xls', 'a.zip', 'a.png', 'a.rtf']) {
      try {
        detectUploadKind(name);
        expect.unreachable(name);
      } catch (error) {
        expect(error).toBeInstanceOf(UploadRejection);
        expect((error as UploadRejection).code).toBe('unsupported_file_type');
        expect((error as UploadRejection).hint).toContain('.docx');
        expect((error as UploadRejection).hint).toContain('.pptx');
      }
    }
    expect(() => detectUploadKind('upload', 'application/msword')).toThrow(/not supported/);
  });

  it('cross-checks magic bytes: a PDF named .txt is refused', () => {
    expect(() => detectUploadKind('notes.txt', 'text/plain', new TextEncoder().encode('%PDF-1.4'))).toThrow(/contains a PDF document/);
  });
});
