import { describe, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import mammoth from 'mammoth';
import { CONTENT_TYPES, extractText, renderDocx } from '../../sandbox/formats/index.js';
import { BODY_SENTENCE, samplePolicy, WATERMARK } from './sampleModels.js';
import { assertWellFormedXml } from './xmlWellFormed.js';

const REQUIRED_PARTS = [
  '[Content_Types].xml',
  '_rels/.rels',
  'word/document.xml',
  'word/_rels/document.xml.rels',
  'word/styles.xml',
  'word/numbering.xml',
  'word/settings.xml',
  'word/header1.xml',
  'word/footer1.xml',
  'docProps/core.xml',
  'docProps/app.xml',
];

describe('renderDocx', () => {
  const model = samplePolicy(3);
  const bytes = renderDocx(model);
  const parts = Object.fromEntries(Object.entries(unzipSync(bytes)).map(([name, data]) => [name, strFromU8(data)]));

  it('is a complete OOXML package of well-formed parts', () => {
    expect(Object.keys(parts).sort()).toEqual([...REQUIRED_PARTS].sort());
    for (const [name, xml] of Object.entries(parts)) assertWellFormedXml(xml, name);
    expect(parts['[Content_Types].xml']).toContain('PartName="/word/document.xml"');
    expect(parts['[Content_Types].xml']).toContain('PartName="/word/header1.xml"');
    // Every relationship id the body uses is declared.
    for (const [, id] of (parts['word/document.xml'] ?? '').matchAll(/r:id="([^"]+)"/g)) {
      expect(parts['word/_rels/document.xml.rels']).toContain(`Id="${id}"`);
    }
    expect(CONTENT_TYPES.docx).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('carries the title in the core properties and the watermark in the header', () => {
    expect(parts['docProps/core.xml']).toContain('<dc:title>Access Control Policy \u2014 Acme Health</dc:title>');
    expect(parts['docProps/core.xml']).toContain('<dcterms:created xsi:type="dcterms:W3CDTF">2025-03-01T10:00:00Z</dcterms:created>');
    expect(parts['word/header1.xml']).toContain(`string="${WATERMARK}"`);
    expect(parts['word/header1.xml']).toContain(`>${WATERMARK}</w:t>`);
    expect(parts['word/document.xml']).toContain('<w:pStyle w:val="Heading1"/>');
    expect(parts['word/document.xml']).toContain('Acme &lt;Health&gt; Ltd');
  });

  it('opens in an independent reader (mammoth) with title, watermark, body, bullets and table', async () => {
    const { value: text } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
    expect(text).toContain('Access Control Policy \u2014 Acme Health');
    expect(text).toContain(WATERMARK);
    expect(text).toContain(BODY_SENTENCE);
    expect(text).toContain('Source code | CI pipelines');
    expect(text).toContain('Access permissions, entitlements and authorizations');
    const { value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
    expect(html).toContain('<h1>Purpose &amp; scope</h1>');
    expect(html).toContain('<li>Production databases</li>');
    expect(html).toContain('<table>');
  });

  it('reads back through our own extractor', async () => {
    const { text, kind } = await extractText({ data: bytes, filename: 'policy.docx' });
    expect(kind).toBe('docx');
    expect(text.split('\n\n')[0]).toBe('Access Control Policy \u2014 Acme Health');
    expect(text).toContain(WATERMARK);
    expect(text).toContain(`\n\n${BODY_SENTENCE}\n\n`);
    expect(text).toContain('PR.AA-01\tIdentities and credentials for authorized users are managed by the organization\tIT Security');
  });

  it('is deterministic and has no watermark header when there is no watermark', () => {
    expect(Buffer.from(renderDocx(samplePolicy(3))).equals(Buffer.from(bytes))).toBe(true);
    const plain = unzipSync(renderDocx({ ...model, watermark: undefined }));
    expect(Object.keys(plain)).not.toContain('word/header1.xml');
    expect(strFromU8(plain['word/document.xml'] ?? new Uint8Array())).not.toContain('headerReference');
  });
});
