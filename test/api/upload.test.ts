/**
 * Mapping uploads (api/upload.ts): which files are refused before anything is sent and what the
 * refusal says, and the multipart/form-data body the service reads: its boundary never occurs in
 * the file, its parameters are quoted as browsers quote them, and the file's base name is sent.
 */
import { describe, expect, it } from 'vitest';
import { buildMultipart, checkUpload, uploadKindFor } from '../../api/upload.js';

const ACCEPTED = '.docx .pdf .xlsx .pptx .txt .md .markdown .csv';
const refusal = (filename: string, data: Uint8Array | Blob = new Uint8Array(1)) => {
  try {
    checkUpload({ filename, data }, 'mapDocument');
  } catch (error) {
    return error;
  }
  return undefined;
};
const text = (body: Uint8Array) => new TextDecoder().decode(body);

describe('which files are refused', () => {
  it('reads the kind from the base name\'s extension, in any case; a leading dot is no extension', () => {
    expect(uploadKindFor('dir/Policy.PDF')?.kind).toBe('pdf');
    expect(uploadKindFor('C:\\docs\\notes.md')?.kind).toBe('text');
    expect(uploadKindFor('.md')).toBeUndefined();
    expect(uploadKindFor('README')).toBeUndefined();
  });

  it.each([
    ['README', 'no extension'],
    ['.md', 'no extension'],
    ['v1.2/README', 'no extension'],
    ['tool.EXE', '.exe'],
  ])('refuses %s, naming its extension as %s and the kinds accepted', (filename, extension) => {
    expect(refusal(filename)).toMatchObject({
      code: 'unsupported_file_type',
      field: 'file',
      operationId: 'mapDocument',
      message: `mapDocument: file "${filename}" is of a kind the service does not accept (${extension}); accepted: ${ACCEPTED}`,
      hint: 'Convert the file to one of .docx, .pdf, .xlsx, .pptx, .txt, .md, .markdown, .csv, or pass its text as content.',
    });
  });

  it('refuses a file over 10 MB, as bytes or as a Blob, saying its size', () => {
    for (const data of [new Uint8Array(10 * 1024 * 1024 + 1), new Blob([new Uint8Array(10 * 1024 * 1024 + 1)])]) {
      expect(refusal('big.pdf', data)).toMatchObject({
        code: 'upload_too_large',
        field: 'file',
        message: 'mapDocument: file "big.pdf" has 10,485,761 bytes; the upload limit is 10,485,760 bytes (10 MB)',
        hint: 'Split the document, remove embedded images, or send its text as content.',
      });
    }
    expect(refusal('ok.pdf', new Blob([new Uint8Array(10 * 1024 * 1024)]))).toBeUndefined();
  });
});

describe('the multipart body', () => {
  it('sends the text fields given, then the file under its base name, with a 24-character boundary', async () => {
    const { body, contentType } = await buildMultipart({ framework: 'nist-csf-2', note: undefined }, { filename: 'dir/sub\\policy.md', data: new TextEncoder().encode('# P') }, () => 0.5);
    const boundary = `----ComplianceBoundary${'i'.repeat(24)}`;
    expect(contentType).toBe(`multipart/form-data; boundary=${boundary}`);
    expect(text(body)).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="framework"\r\n\r\nnist-csf-2\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="policy.md"\r\nContent-Type: text/markdown; charset=utf-8\r\n\r\n# P\r\n--${boundary}--\r\n`,
    );
  });

  it('quotes a quote and line breaks in a name as browsers do, and keeps a content type given', async () => {
    const { body } = await buildMultipart({ 'a"b': 'v' }, { filename: 'x"y\r\nz.pdf', data: new ArrayBuffer(1), contentType: 'application/x-pdf' }, () => 0);
    expect(text(body)).toContain('name="a%22b"');
    expect(text(body)).toContain('filename="x%22y%0D%0Az.pdf"\r\nContent-Type: application/x-pdf\r\n');
  });

  it('draws another boundary while the one drawn occurs in the file, even at its very end', async () => {
    const first = `----ComplianceBoundary${'0'.repeat(24)}`;
    for (const data of [`x${first}y`, first, `${first}`.slice(0, -1), `ab${first}`]) {
      const draws = [...Array.from({ length: 24 }, () => 0), ...Array.from({ length: 24 }, () => 0.5)];
      const { contentType } = await buildMultipart({}, { filename: 'a.txt', data: new TextEncoder().encode(data) }, () => draws.shift() ?? 0.5);
      const expected = data.includes(first) ? `----ComplianceBoundary${'i'.repeat(24)}` : first;
      expect(contentType).toBe(`multipart/form-data; boundary=${expected}`);
    }
  });

  it('reads a Blob\'s bytes', async () => {
    const { body } = await buildMultipart({}, { filename: 'a.txt', data: new Blob(['blob text']) }, () => 0);
    expect(text(body)).toContain('\r\n\r\nblob text\r\n');
  });
});
