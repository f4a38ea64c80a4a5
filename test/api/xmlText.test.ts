/** escapeXml: the five escapes and every character class XML 1.0 forbids. */
import { describe, expect, it } from 'vitest';
import { escapeXml } from '../../api/xmlText.js';

describe('escapeXml', () => {
  it('escapes markup for element content and both quote styles, ampersands first', () => {
    expect(escapeXml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&apos;y&apos;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('removes the control characters XML forbids and keeps tab, line feed and carriage return', () => {
    const forbidden = [0x00, 0x08, 0x0b, 0x0c, 0x0e, 0x1f].map((code) => String.fromCharCode(code)).join('');
    expect(escapeXml(`a${forbidden}\t\n\r b`)).toBe('a\t\n\r b');
    expect(escapeXml('\u0020\u007f\ufffd')).toBe('\u0020\u007f\ufffd');
    expect(escapeXml('x\ufffe\uffffy')).toBe('xy');
  });

  it('removes lone surrogates and keeps pairs', () => {
    expect(escapeXml('a\ud83d\ude00b')).toBe('a\ud83d\ude00b');
    expect(escapeXml('a\ud83db')).toBe('ab');
    expect(escapeXml('a\ude00b')).toBe('ab');
    expect(escapeXml('\ud83d')).toBe('');
    expect(escapeXml('\udbff\udfff\udc00')).toBe('\udbff\udfff');
  });
});
