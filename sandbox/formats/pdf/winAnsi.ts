/**
 * Unicode text to WinAnsiEncoding (Windows-1252), the encoding of the standard fonts we declare.
 * The result is a "byte string": one UTF-16 unit per byte, each 0..255.
 * Characters outside WinAnsi become their closest WinAnsi or ASCII equivalent, never a silent gap.
 */

/** Unicode code points of Windows-1252 bytes 0x80..0x9F. */
const CP1252_HIGH: ReadonlyMap<number, number> = new Map([
  [0x20ac, 0x80], [0x201a, 0x82], [0x0192, 0x83], [0x201e, 0x84], [0x2026, 0x85], [0x2020, 0x86],
  [0x2021, 0x87], [0x02c6, 0x88], [0x2030, 0x89], [0x0160, 0x8a], [0x2039, 0x8b], [0x0152, 0x8c],
  [0x017d, 0x8e], [0x2018, 0x91], [0x2019, 0x92], [0x201c, 0x93], [0x201d, 0x94], [0x2022, 0x95],
  [0x2013, 0x96], [0x2014, 0x97], [0x02dc, 0x98], [0x2122, 0x99], [0x0161, 0x9a], [0x203a, 0x9b],
  [0x0153, 0x9c], [0x017e, 0x9e], [0x0178, 0x9f],
]);

/** WinAnsi byte of the bullet, used for list items. */
export const WIN_ANSI_BULLET = String.fromCharCode(0x95);

/** Common characters outside WinAnsi and what stands in for them. */
const SUBSTITUTES: ReadonlyMap<number, string> = new Map([
  [0x2010, '-'], [0x2011, '-'], [0x2012, '-'], [0x2212, '-'], [0x2043, '-'], [0x2015, '\u2014'],
  [0x2032, "'"], [0x2033, '"'], [0x201b, '\u2018'], [0x201f, '\u201c'], [0x2027, '\u00b7'],
  [0x2190, '<-'], [0x2192, '->'], [0x2194, '<->'], [0x21d0, '<='], [0x21d2, '=>'],
  [0x2264, '<='], [0x2265, '>='], [0x2260, '!='], [0x2248, '~'], [0x2261, '='], [0x221e, 'infinity'],
  [0x2023, '\u2022'], [0x25cf, '\u2022'], [0x25e6, '\u2022'], [0x25aa, '\u2022'], [0x25a0, '\u2022'], [0x2219, '\u00b7'],
  [0x2713, 'v'], [0x2714, 'v'], [0x2717, 'x'], [0x2718, 'x'],
  [0x0141, 'L'], [0x0142, 'l'], [0x0110, 'D'], [0x0111, 'd'], [0x0131, 'i'],
  [0x2002, ' '], [0x2003, ' '], [0x2004, ' '], [0x2005, ' '], [0x2006, ' '], [0x2007, ' '],
  [0x2008, ' '], [0x2009, ' '], [0x200a, ' '], [0x202f, ' '], [0x205f, ' '], [0x3000, ' '],
  [0x200b, ''], [0x200c, ''], [0x200d, ''], [0x2060, ''], [0xfeff, ''], [0x00ad, ''],
  [0x2028, '\n'], [0x2029, '\n'], [0x0009, ' '],
]);

const REPLACEMENT = '?';

function encodeCodePoint(codePoint: number): string | undefined {
  if ((codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff) || codePoint === 0x0a) {
    return String.fromCharCode(codePoint);
  }
  const high = CP1252_HIGH.get(codePoint);
  return high === undefined ? undefined : String.fromCharCode(high);
}

function encodeCharacter(character: string): string {
  const codePoint = character.codePointAt(0) ?? 0;
  const direct = encodeCodePoint(codePoint);
  if (direct !== undefined) return direct;
  const substitute = SUBSTITUTES.get(codePoint);
  if (substitute !== undefined) return [...substitute].map((c) => encodeCodePoint(c.codePointAt(0) ?? 0) ?? '').join('');
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) return '';
  // Letters with diacritics WinAnsi lacks (ő, č, ș): base letter.
  const decomposed = character.normalize('NFKD').replace(/\p{M}/gu, '');
  if (decomposed && decomposed !== character) {
    const parts = [...decomposed].map((c) => encodeCodePoint(c.codePointAt(0) ?? 0));
    if (parts.every((p) => p !== undefined)) return parts.join('');
  }
  return REPLACEMENT;
}

/** Encodes text for a WinAnsi font; "\n" is kept so callers can break lines on it. */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const character of text.replace(/\r\n?/g, '\n')) out += encodeCharacter(character);
  return out;
}
