/**
 * Decompression bombs built here, programmatically, for the upload attack test and bench: each is
 * small on the wire and huge once inflated. Deflate streams are made in chunks, so generating a
 * 1 GB bomb never holds 1 GB. Plus the attack itself (`runAttack`): the bombs uploaded one by one
 * while another key pings, with latencies and the server's peak RSS.
 */
import { readFileSync } from 'node:fs';
import { constants, deflateRawSync, deflateSync, createDeflateRaw } from 'node:zlib';

const MB = 1024 * 1024;

/** Raw deflate of `unit` repeated to `totalBytes` (a multiple of its length), streamed through zlib. */
export async function deflateRepeated(unit: Uint8Array, totalBytes: number): Promise<Uint8Array> {
  const chunkUnits = Math.max(1, Math.floor((4 * MB) / unit.length));
  const chunk = Buffer.alloc(chunkUnits * unit.length);
  for (let at = 0; at < chunk.length; at += unit.length) chunk.set(unit, at);
  // Run-length matching is all a run of one byte needs, and by far the fastest.
  const deflate = createDeflateRaw(unit.length === 1 ? { strategy: constants.Z_RLE } : { level: 6 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const done = new Promise<void>((resolve, reject) => {
    deflate.once('end', resolve);
    deflate.once('error', reject);
  });
  for (let written = 0; written < totalBytes; written += chunk.length) {
    const part = chunk.subarray(0, Math.min(chunk.length, totalBytes - written));
    if (!deflate.write(part)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(parts);
}

/** A zlib stream (what PDF's FlateDecode holds) around a raw deflate of `length` bytes of `unit`, repeated. */
function zlibWrap(raw: Uint8Array, unit: Uint8Array, length: number): Uint8Array {
  // Adler-32 in closed form: after n units of length L, byte sum S and sum of running sums P,
  // a = 1 + nS and b = nL + L·S·n(n−1)/2 + nP (mod 65521).
  const M = 65521n;
  const n = BigInt(length / unit.length);
  const L = BigInt(unit.length);
  let S = 0n;
  let P = 0n;
  for (const byte of unit) {
    S += BigInt(byte);
    P += S;
  }
  const a = (1n + n * S) % M;
  const b = (n * L + (L * S * n * (n - 1n)) / 2n + n * P) % M;
  const out = new Uint8Array(raw.length + 6);
  out.set([0x78, 0xda]);
  out.set(raw, 2);
  new DataView(out.buffer).setUint32(raw.length + 2, Number((b << 16n) | a));
  return out;
}

export interface PdfStream {
  dictionary: string;
  data: Uint8Array;
}

/** A one-page PDF whose page draws `content`, with the cross-reference table right. */
export function pdfWith(content: PdfStream, extraObjects: string[] = []): Uint8Array {
  const objects: Array<string | PdfStream> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    content,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...extraObjects,
  ];
  const chunks: Uint8Array[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (part: string | Uint8Array) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    chunks.push(bytes);
    length += bytes.length;
  };
  push('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  objects.forEach((object, index) => {
    offsets.push(length);
    if (typeof object === 'string') return push(`${index + 1} 0 obj\n${object}\nendobj\n`);
    push(`${index + 1} 0 obj\n<< ${object.dictionary} /Length ${object.data.length} >>\nstream\n`);
    push(object.data);
    push('\nendstream\nendobj\n');
  });
  const xref = length;
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`);
  push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(chunks);
}

/** A readable one-page PDF (to check normal PDFs still pass). */
export function plainPdf(text: string): Uint8Array {
  const content = `BT /F1 12 Tf 72 720 Td (${text.replace(/[()\\]/g, '\\$&')}) Tj ET`;
  return pdfWith({ dictionary: '/Filter /FlateDecode', data: deflateSync(content) });
}

export interface ZipEntry {
  name: string;
  /** Raw deflate data (method 8), or the stored bytes (method 0). */
  data: Uint8Array;
  method: 0 | 8;
  /** What the archive claims the entry inflates to; a bomb lies here. */
  declaredSize: number;
}

/** A ZIP archive with exactly the given entries and declared sizes (CRCs left 0: readers here do not check them). */
export function zipWith(entries: ZipEntry[]): Uint8Array {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(entry.method, 8);
    header.writeUInt32LE(entry.data.length, 18);
    header.writeUInt32LE(entry.declaredSize, 22);
    header.writeUInt16LE(name.length, 26);
    local.push(header, name, Buffer.from(entry.data));
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(entry.method, 10);
    record.writeUInt32LE(entry.data.length, 20);
    record.writeUInt32LE(entry.declaredSize, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(offset, 42);
    central.push(record, name);
    offset += 30 + name.length + entry.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, directory, end]);
}

function deflated(name: string, text: string): ZipEntry {
  const data = Buffer.from(text, 'utf8');
  return { name, data: deflateRawSync(data, { level: constants.Z_BEST_COMPRESSION }), method: 8, declaredSize: data.length };
}

const MAIN_PARTS = { docx: 'word/document.xml', xlsx: 'xl/workbook.xml', pptx: 'ppt/presentation.xml' } as const;

/** An OOXML package of `kind` whose main part is `main` (a bomb entry, or a normal one), plus `extra` entries. */
export function officePackage(kind: keyof typeof MAIN_PARTS, main: Omit<ZipEntry, 'name'>, extra: ZipEntry[] = []): Uint8Array {
  return zipWith([
    deflated('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    deflated(
      '_rels/.rels',
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="${MAIN_PARTS[kind]}"/></Relationships>`,
    ),
    { name: MAIN_PARTS[kind], ...main },
    ...extra,
  ]);
}

/** A normal Word document of a few paragraphs, hand-built (the nested-archive case wraps it). */
export function wordDocumentEntry(paragraphs: string[]): ZipEntry {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t>${p}</w:t></w:r></w:p>`).join('');
  return deflated('word/document.xml', `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`);
}

export interface Bomb {
  name: string;
  filename: string;
  bytes: Uint8Array;
  /** Bytes the bomb would inflate to (or characters it would yield) if nothing stopped it. */
  inflatesTo: number;
  /** The `limit` the sandbox must name when it refuses it. */
  limit: string;
}

/**
 * The attack set. `scale` is the inflated size of the zero bombs (default 1 GB: twenty times the
 * 50 MB budget); the text-operator bomb inflates to 300 MB of `Tj` operators; the characters bomb
 * stays under the byte budget (40 MB of operators) but yields far more than 2,000,000 characters;
 * the memory bomb labels its content stream an image, which the byte pre-scan skips, so only the
 * worker memory watch can stop pdf.js inflating it.
 */
export async function buildBombs(scale = 1024 * MB): Promise<Bomb[]> {
  const zero = new Uint8Array(1);
  const zeros = await deflateRepeated(zero, scale);
  const textOperator = Buffer.from('BT /F1 12 Tf 72 720 Td (All work and no play makes a dull policy.) Tj ET\n', 'latin1');
  const operatorsLength = Math.floor((300 * MB) / textOperator.length) * textOperator.length;
  const operators = await deflateRepeated(textOperator, operatorsLength);
  const charactersLength = Math.floor((40 * MB) / textOperator.length) * textOperator.length;
  const characters = await deflateRepeated(textOperator, charactersLength);
  const lie = { data: zeros, method: 8 as const, declaredSize: 4_000 };
  return [
    { name: 'PDF flate bomb (zeros)', filename: 'flate-bomb.pdf', bytes: pdfWith({ dictionary: '/Filter /FlateDecode', data: zlibWrap(zeros, zero, scale) }), inflatesTo: scale, limit: 'inflated_bytes' },
    { name: 'PDF of 300 MB text operators', filename: 'operators.pdf', bytes: pdfWith({ dictionary: '/Filter /FlateDecode', data: zlibWrap(operators, textOperator, operatorsLength) }), inflatesTo: operatorsLength, limit: 'inflated_bytes' },
    { name: 'PDF of 40 MB text operators (characters)', filename: 'characters.pdf', bytes: pdfWith({ dictionary: '/Filter /FlateDecode', data: zlibWrap(characters, textOperator, charactersLength) }), inflatesTo: charactersLength, limit: 'extracted_characters' },
    { name: 'PDF flate bomb disguised as an image', filename: 'image-bomb.pdf', bytes: pdfWith({ dictionary: '/Subtype /Image /Width 1 /Height 1 /BitsPerComponent 8 /ColorSpace /DeviceGray /Filter /FlateDecode', data: zlibWrap(zeros, zero, scale) }), inflatesTo: scale, limit: 'worker_memory' },
    { name: 'DOCX whose document.xml declares 4,000 bytes', filename: 'lying.docx', bytes: officePackage('docx', lie), inflatesTo: scale, limit: 'inflated_bytes' },
    { name: 'XLSX whose workbook.xml declares 4,000 bytes', filename: 'lying.xlsx', bytes: officePackage('xlsx', lie), inflatesTo: scale, limit: 'inflated_bytes' },
    { name: 'PPTX whose presentation.xml declares 4,000 bytes', filename: 'lying.pptx', bytes: officePackage('pptx', lie), inflatesTo: scale, limit: 'inflated_bytes' },
  ];
}

/** A DOCX with a normal body that also carries a nested archive (a zip of zips of zeros) as an embedding. */
export async function nestedArchiveDocx(paragraphs: string[], scale = 1024 * MB): Promise<{ bytes: Uint8Array; inflatesTo: number }> {
  const zeros = await deflateRepeated(new Uint8Array(1), scale);
  // As 42.zip does: the inner archives are deflated again, and deflate output of zeros compresses well.
  const inner = zipWith(Array.from({ length: 4 }, (_, i) => ({ name: `zeros-${i}.bin`, data: zeros, method: 8 as const, declaredSize: 4_000 })));
  const innerDeflated = deflateRawSync(inner, { level: 9 });
  const outer = zipWith(Array.from({ length: 16 }, (_, i) => ({ name: `inner-${i}.zip`, data: innerDeflated, method: 8 as const, declaredSize: inner.length })));
  const main = wordDocumentEntry(paragraphs);
  const bytes = officePackage('docx', main, [{ name: 'word/embeddings/package.zip', data: outer, method: 0, declaredSize: outer.length }]);
  return { bytes, inflatesTo: 64 * scale };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Resident set of a process now and at its peak (Linux /proc). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

export interface UploadAnswer {
  status: number;
  body: { error?: { code: string; message: string; limit?: string } } & Record<string, unknown>;
  headers: Headers;
  ms: number;
}

/** POST /documents/map with `bytes` as the file, timed from send to the parsed answer. */
export async function uploadFile(baseUrl: string, key: string, bytes: Uint8Array, filename: string): Promise<UploadAnswer> {
  const form = new FormData();
  form.set('framework', 'hipaa-security');
  form.set('file', new Blob([bytes]), filename);
  const started = performance.now();
  const response = await fetch(`${baseUrl}/documents/map`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  const body = (await response.json()) as UploadAnswer['body'];
  return { status: response.status, body, headers: response.headers, ms: performance.now() - started };
}

/** Pings with `key`, one after another, until `stop()`, which resolves with every latency (ms). */
export function pingLoop(baseUrl: string, key: string): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/ping`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`ping answered ${response.status}`);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  // A failed ping surfaces at stop(), not as an unhandled rejection that ends the process mid-measure.
  loop.catch(() => undefined);
  return {
    async stop() {
      running = false;
      await loop;
      return latencies;
    },
  };
}

export interface AttackResult {
  atRest: number[];
  underAttack: number[];
  /** Peak resident set of the server process over its life (VmHWM), bytes. */
  peakRss: number;
  answers: Array<{ bomb: Bomb; answer: UploadAnswer }>;
}

/** A second of pings at rest, then every bomb uploaded in turn by `attacker` while `bystander` pings. */
export async function runAttack(options: { baseUrl: string; pid: number; attacker: string; bystander: string; bombs: Bomb[] }): Promise<AttackResult> {
  const rest = pingLoop(options.baseUrl, options.bystander);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const atRest = await rest.stop();
  const pings = pingLoop(options.baseUrl, options.bystander);
  const answers: AttackResult['answers'] = [];
  for (const bomb of options.bombs) answers.push({ bomb, answer: await uploadFile(options.baseUrl, options.attacker, bomb.bytes, bomb.filename) });
  const underAttack = await pings.stop();
  return { atRest, underAttack, peakRss: memoryOf(options.pid).peak, answers };
}
