import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesHash, sha256Hex } from '../../api/contentHash.js';

describe('pure SHA-256', () => {
  // Lengths around the padding boundaries (55/56/64 bytes) and multi-block inputs.
  it.each([0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 65_537])('agrees with node:crypto on %i bytes', (length) => {
    const data = Uint8Array.from({ length }, (_, i) => (i * 131 + 7) & 0xff);
    expect(sha256Hex(data)).toBe(createHash('sha256').update(data).digest('hex'));
  });

  it('matches the FIPS 180-4 test vector', () => {
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(bytesHash(new Uint8Array(0))).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
