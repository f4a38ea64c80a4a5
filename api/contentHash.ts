/**
 * The one content identity of the package: what counts as "the same text" for a library document.
 * Sync (review/) hashes what it would upload with this; the sandbox library reports this as a
 * document's `contentHash`; so both sides agree on every checkout.
 *
 * A checkout on another OS (CRLF), an editor that leaves trailing spaces, a byte-order mark or an
 * extra blank line at the end must not look like a change that costs a refresh.
 * Pure: no node: imports, no process. SHA-256 is implemented here (synchronous, no node:crypto and
 * no WebCrypto promise) so the same code runs in n8n, the actions, the CLI and the sandbox.
 */

/** BOM dropped, CRLF/CR → LF, trailing whitespace trimmed per line, trailing blank lines collapsed to one newline. */
export function normaliseContent(text: string): string {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    // trimEnd, like the sandbox library: every Unicode space (a stray NBSP is no change either).
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** Lower-case hex SHA-256 (FIPS 180-4) of the bytes. */
export function sha256Hex(data: Uint8Array): string {
  const length = data.length;
  const blocks = Math.ceil((length + 9) / 64);
  // Only the tail (the last one or two blocks) is copied for padding; full blocks are read in place.
  const tailStart = Math.floor(length / 64) * 64;
  const tail = new Uint8Array((blocks - tailStart / 64) * 64);
  tail.set(data.subarray(tailStart));
  tail[length - tailStart] = 0x80;
  const bitLength = length * 8;
  const hi = Math.floor(bitLength / 2 ** 32);
  const lo = bitLength >>> 0;
  const end = tail.length;
  tail[end - 8] = hi >>> 24;
  tail[end - 7] = (hi >>> 16) & 0xff;
  tail[end - 6] = (hi >>> 8) & 0xff;
  tail[end - 5] = hi & 0xff;
  tail[end - 4] = lo >>> 24;
  tail[end - 3] = (lo >>> 16) & 0xff;
  tail[end - 2] = (lo >>> 8) & 0xff;
  tail[end - 1] = lo & 0xff;

  let h0 = 0x6a09e667, h1 = 0xbb67ae85 | 0, h2 = 0x3c6ef372, h3 = 0xa54ff53a | 0;
  let h4 = 0x510e527f, h5 = 0x9b05688c | 0, h6 = 0x1f83d9ab, h7 = 0x5be0cd19;
  const w = new Int32Array(64);
  for (let block = 0; block < blocks; block++) {
    const offset = block * 64;
    const source = offset < tailStart ? data : tail;
    let p = offset < tailStart ? offset : offset - tailStart;
    for (let t = 0; t < 16; t++, p += 4) {
      w[t] = ((source[p] as number) << 24) | ((source[p + 1] as number) << 16) | ((source[p + 2] as number) << 8) | (source[p + 3] as number);
    }
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15] as number;
      const b = w[t - 2] as number;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[t] = ((w[t - 16] as number) + s0 + (w[t - 7] as number) + s1) | 0;
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + (K[t] as number) + (w[t] as number)) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  return [h0, h1, h2, h3, h4, h5, h6, h7].map((word) => (word >>> 0).toString(16).padStart(8, '0')).join('');
}

const encoder = new TextEncoder();

/** `sha256:<hex>` of the normalised text: the form the library listing reports as `contentHash`. */
export function contentHash(text: string): string {
  return `sha256:${sha256Hex(encoder.encode(normaliseContent(text)))}`;
}

/** `sha256:<hex>` of bytes as they are (generated pdf/docx files). */
export function bytesHash(data: Uint8Array): string {
  return `sha256:${sha256Hex(data)}`;
}

/** Hashes compare case-insensitively and with or without the `sha256:` prefix. */
export function sameHash(a: string, b: string): boolean {
  const strip = (h: string) => h.trim().toLowerCase().replace(/^sha256:/, '');
  return strip(a) === strip(b);
}
