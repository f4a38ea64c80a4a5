import { describe, expect, it } from 'vitest';
import { extractText as extractPdfText, getDocumentProxy, getMeta } from 'unpdf';
import { renderPdf } from '../../sandbox/formats/index.js';
import { BODY_SENTENCE, samplePolicy, WATERMARK } from './sampleModels.js';

async function readPdf(bytes: Uint8Array) {
  const document = await getDocumentProxy(bytes.slice(), { verbosity: 0 });
  const { totalPages, text } = await extractPdfText(document, { mergePages: false });
  const { info } = await getMeta(await getDocumentProxy(bytes.slice(), { verbosity: 0 }));
  return { totalPages, pages: text.map((page) => page.replace(/\s+/g, ' ')), info: info as Record<string, unknown> };
}

/** Byte offsets in the xref table must point at "N 0 obj". */
function checkCrossReferences(bytes: Uint8Array): number {
  const file = Buffer.from(bytes).toString('latin1');
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(file)?.[1]);
  expect(file.slice(startxref, startxref + 4)).toBe('xref');
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(file.slice(startxref)) ?? [];
  expect(Number(first)).toBe(0);
  const entries = file.slice(startxref).split('\n').slice(2, 2 + Number(count));
  entries.slice(1).forEach((entry, index) => {
    expect(entry).toMatch(/^\d{10} 00000 n $/);
    const offset = Number(entry.slice(0, 10));
    expect(file.slice(offset, offset + 12)).toMatch(new RegExp(`^${index + 1} 0 obj\\n`));
  });
  return Number(count);
}

describe('renderPdf', () => {
  it('writes a valid PDF whose text, title and watermark can be read back', async () => {
    const model = samplePolicy();
    const bytes = renderPdf(model);
    expect(Buffer.from(bytes.subarray(0, 8)).toString('latin1')).toBe('%PDF-1.7');
    checkCrossReferences(bytes);
    const { totalPages, pages, info } = await readPdf(bytes);
    expect(totalPages).toBe(1);
    expect(info.Title).toBe(model.title);
    expect(info.CreationDate).toBe('D:20250301100000Z');
    const text = pages[0] ?? '';
    expect(text).toContain('Access Control Policy \u2014 Acme Health');
    expect(text).toContain(BODY_SENTENCE);
    expect(text).toContain(WATERMARK);
    expect(text).toContain('\u201cthird parties\u201d');
    expect(text).toContain('Acme <Health> Ltd');
    expect(text).toContain('PR.AA-05');
    expect(text).toContain('Page 1 of 1');
  });

  it('paginates long documents with the watermark and page numbers on every page', async () => {
    const bytes = renderPdf(samplePolicy(40));
    checkCrossReferences(bytes);
    const { totalPages, pages } = await readPdf(bytes);
    expect(totalPages).toBeGreaterThan(3);
    pages.forEach((page, index) => {
      expect(page).toContain(WATERMARK);
      expect(page).toContain(`Page ${index + 1} of ${totalPages}`);
    });
    expect(pages.join(' ')).toContain('Requirement 40: reviews are performed quarterly');
  });

  it('is deterministic', () => {
    expect(Buffer.from(renderPdf(samplePolicy(5))).equals(Buffer.from(renderPdf(samplePolicy(5))))).toBe(true);
  });
});

describe('renderPdf edge cases', () => {
  it('handles unbreakable words, wide tables, tall cells, non-WinAnsi characters and no watermark', async () => {
    const longCell = Array.from({ length: 120 }, (_, i) => `clause ${i} of the retention schedule`).join(' ');
    const bytes = renderPdf({
      title: 'Edge cases \u0141\u00f3d\u017a \u2192 \u4e2d\u6587',
      meta: [],
      sections: [
        {
          heading: 'Long words',
          paragraphs: ['https://example.org/' + 'a'.repeat(400), 'Tabs\tand\nline breaks \u2264 limits \u2713'],
          table: [Array.from({ length: 9 }, (_, i) => `Column ${i}`), ['x', longCell, 'y'], []],
        },
      ],
    });
    checkCrossReferences(bytes);
    const { pages } = await readPdf(bytes);
    const text = pages.join(' ');
    expect(text).toContain('Edge cases L\u00f3dz -> ??');
    expect(text).toContain('line breaks <= limits v');
    expect(text).toContain('clause 0 of the retention schedule');
    expect(text).not.toContain('SANDBOX');
  });
});
