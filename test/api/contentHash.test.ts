/**
 * The one content identity (api/contentHash.ts) that sync and the library both compute. The hashes
 * are fixed values (taken once with coreutils' sha256sum), not node:crypto run again: a change to
 * the normalisation or the prefix would make every stored document look changed, and cost a refresh.
 */
import { describe, expect, it } from 'vitest';
import { bytesHash, contentHash, normaliseContent, sameHash } from '../../api/contentHash.js';

const POLICY = '# Policy\n\nText line\n';
/** sha256sum of POLICY's bytes. */
const POLICY_HASH = 'sha256:6752058c6fb27a6777facdf1155ec26f784b479b8e460513cff8c5cd233f2de5';

describe('normaliseContent', () => {
  it('makes a CRLF checkout, trailing spaces and extra blank lines no change', () => {
    const windows = '\uFEFF# Policy  \r\n\r\nText line\t\r\n\r\n\r\n';
    expect(normaliseContent(windows)).toBe(POLICY);
    expect(normaliseContent('a\rb')).toBe('a\nb\n');
    expect(normaliseContent('x\u00a0\n')).toBe('x\n');
  });

  it('keeps what a reader sees: inner blank lines, leading spaces, a BOM that is not at the start', () => {
    expect(normaliseContent('a\n\n\nb')).toBe('a\n\n\nb\n');
    expect(normaliseContent('  indented\n')).toBe('  indented\n');
    expect(normaliseContent('a\uFEFFb')).toBe('a\uFEFFb\n');
  });

  it('turns text with nothing but whitespace into the empty text', () => {
    expect(normaliseContent('\uFEFF \r\n\t\n')).toBe('');
  });

  it('is stable under a second normalisation (what the library stores after upload)', () => {
    const once = normaliseContent(' x \r\n y\u00a0\n\n');
    expect(once).toBe(' x\n y\n');
    expect(normaliseContent(once)).toBe(once);
  });
});

describe('contentHash', () => {
  it('is sha256: and the hex of the normalised UTF-8', () => {
    expect(contentHash(POLICY)).toBe(POLICY_HASH);
    expect(contentHash('\uFEFF# Policy \r\n\r\nText line\r\n\r\n')).toBe(POLICY_HASH);
    expect(contentHash('abc')).toBe('sha256:edeaaff3f1774ad2888673770c6d64097e391bc362d7d6fb34982ddf0efd18cb');
    expect(contentHash('Données à caractère personnel — 個人情報\r\n')).toBe('sha256:e9abdf4b1dd53c919033949cd128e81fc485d242199a6464ad4df29a2bda2907');
  });

  it('still sees a real edit', () => {
    expect(contentHash(POLICY)).not.toBe(contentHash('# Policy\n\nText line.\n'));
    expect(contentHash('a\n\nb')).not.toBe(contentHash('a\nb'));
  });
});

describe('bytesHash', () => {
  it('hashes bytes as they are, without normalising (generated pdf and docx files)', () => {
    expect(bytesHash(new Uint8Array(0))).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(bytesHash(new TextEncoder().encode(POLICY))).toBe(POLICY_HASH);
    expect(bytesHash(new TextEncoder().encode('# Policy\r\n\r\nText line\r\n'))).not.toBe(POLICY_HASH);
  });
});

describe('sameHash', () => {
  it('compares case-insensitively, with or without the sha256: prefix and surrounding spaces', () => {
    const hex = POLICY_HASH.slice('sha256:'.length);
    expect(sameHash(POLICY_HASH, hex.toUpperCase())).toBe(true);
    expect(sameHash(` ${hex} `, `SHA256:${hex}`)).toBe(true);
    expect(sameHash(POLICY_HASH, contentHash('abc'))).toBe(false);
  });

  it('drops only a leading sha256: prefix, not one inside the text', () => {
    expect(sameHash('md5:sha256:abc', 'md5:abc')).toBe(false);
  });
});
