/**
 * Guarded reading of ZIP-based uploads (DOCX, XLSX, PPTX). The central directory is listed first
 * without inflating anything; only the parts extraction needs are inflated, one at a time, with
 * node:zlib stopping as soon as the bytes it has actually produced pass what is left of the upload's
 * budget. The sizes an entry declares are never trusted: a part declaring 4 KB that inflates to 2 GB
 * is stopped at the budget, not read to its end.
 */
import { inflateRawSync } from 'node:zlib';
import { DEFAULT_UPLOAD_LIMITS, UploadBudget } from './uploadBudget.js';
import { UploadRejection } from './uploadRejection.js';

const ZIP_LIMITS = {
  maxEntries: 10_000,
  /** Uncompressed bytes read from one upload, over all the parts extraction needs. */
  maxUncompressedBytes: DEFAULT_UPLOAD_LIMITS.maxInflatedBytes,
} as const;

interface EntryInfo {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  localHeaderOffset: number;
}

const RESAVE_HINT = 'Open the file in its application, save it again, and upload the saved copy.';
const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

class ZipFormatError extends Error {}

function u64(view: DataView, at: number): number {
  return Number(view.getBigUint64(at, true));
}

/** Entries of the central directory (names, methods, compressed sizes, local header offsets). */
function readCentralDirectory(data: Uint8Array): EntryInfo[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let eocd = -1;
  for (let at = data.length - 22; at >= Math.max(0, data.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw new ZipFormatError('no end of central directory record');
  let count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if ((count === 0xffff || offset === 0xffffffff) && eocd >= 20 && view.getUint32(eocd - 20, true) === ZIP64_LOCATOR) {
    const record = u64(view, eocd - 12);
    if (record + 56 > data.length || view.getUint32(record, true) !== ZIP64_EOCD) throw new ZipFormatError('bad ZIP64 end record');
    count = u64(view, record + 32);
    offset = u64(view, record + 48);
  }
  if (count > ZIP_LIMITS.maxEntries) throw new TooManyEntries();
  const entries: EntryInfo[] = [];
  let at = offset;
  for (let index = 0; index < count; index++) {
    if (at + 46 > data.length || view.getUint32(at, true) !== CENTRAL_HEADER) throw new ZipFormatError('bad central directory entry');
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    let compressedSize = view.getUint32(at + 20, true);
    const uncompressedSize = view.getUint32(at + 24, true);
    let localHeaderOffset = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(data.subarray(at + 46, at + 46 + nameLength));
    // ZIP64 extended information: the 64-bit values appear in this order, each only when its 32-bit field is saturated.
    for (let extra = at + 46 + nameLength; extra + 4 <= at + 46 + nameLength + extraLength; ) {
      const id = view.getUint16(extra, true);
      const size = view.getUint16(extra + 2, true);
      if (id === 0x0001) {
        let field = extra + 4;
        if (uncompressedSize === 0xffffffff) field += 8;
        if (compressedSize === 0xffffffff && field + 8 <= extra + 4 + size) {
          compressedSize = u64(view, field);
          field += 8;
        }
        if (localHeaderOffset === 0xffffffff && field + 8 <= extra + 4 + size) localHeaderOffset = u64(view, field);
      }
      extra += 4 + size;
    }
    entries.push({ name, method: view.getUint16(at + 10, true), flags: view.getUint16(at + 8, true), compressedSize, localHeaderOffset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

class TooManyEntries extends Error {}

function describeFailure(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class ZipPackage {
  private readonly entries = new Map<string, EntryInfo>();
  private readonly data: Uint8Array;
  private readonly label: string;
  private readonly budget: UploadBudget;

  private constructor(data: Uint8Array, label: string, budget: UploadBudget) {
    this.data = data;
    this.label = label;
    this.budget = budget;
  }

  /** Lists the archive; `label` names the document kind in messages ("Word document"). */
  static open(data: Uint8Array, label: string, budget = new UploadBudget(DEFAULT_UPLOAD_LIMITS, `The ${label}`)): ZipPackage {
    const zip = new ZipPackage(data, label, budget);
    try {
      for (const entry of readCentralDirectory(data)) zip.entries.set(entry.name.replace(/^\/+/, '').toLowerCase(), entry);
    } catch (error) {
      if (error instanceof TooManyEntries) {
        throw new UploadRejection(
          'upload_too_large',
          `The ${label} holds more than ${ZIP_LIMITS.maxEntries} archive entries (limit: archive entries).`,
          'Upload the document itself, not an archive of many files; split very large workbooks or decks.',
          'zip_entries',
        );
      }
      throw new UploadRejection('unreadable_file', `The ${label} is not a valid ZIP package (${describeFailure(error)}); the file is damaged or not really a ${label}.`, RESAVE_HINT);
    }
    return zip;
  }

  /** Part names, lower-cased (OOXML part names are case-insensitive). */
  get names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name.toLowerCase());
  }

  /** The raw bytes of one part, inflated under the budget. */
  private inflate(entry: EntryInfo): Uint8Array {
    const damaged = (reason: string) =>
      new UploadRejection('unreadable_file', `The ${this.label} is damaged: part ${entry.name} cannot be decompressed (${reason}).`, RESAVE_HINT);
    if (entry.flags & 1) throw new UploadRejection('unreadable_file', `The ${this.label} is encrypted.`, 'Remove the password (or upload an unprotected copy) and try again.');
    const view = new DataView(this.data.buffer, this.data.byteOffset, this.data.byteLength);
    const at = entry.localHeaderOffset;
    if (at + 30 > this.data.length || view.getUint32(at, true) !== LOCAL_HEADER) throw damaged('no local header');
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    const end = start + entry.compressedSize;
    if (end > this.data.length) throw damaged('truncated');
    const compressed = this.data.subarray(start, end);
    if (entry.method === 0) {
      this.budget.addInflated(compressed.length);
      return compressed;
    }
    if (entry.method !== 8) throw damaged(`compression method ${entry.method} is not supported`);
    let bytes: Buffer;
    try {
      // zlib counts what it produces and stops one byte past what is left of the budget. It writes
      // into one buffer that size (its pages used only as written, and returned to the system when
      // freed), not into thousands of 16 KB chunks the worker's allocator would keep after the upload.
      const room = Math.max(1, this.budget.remainingBytes + 1);
      bytes = inflateRawSync(compressed, { maxOutputLength: room, chunkSize: Math.max(64, room) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw this.budget.overBytes();
      throw damaged(describeFailure(error));
    }
    this.budget.addInflated(bytes.length);
    return bytes;
  }

  /** The text of one XML part, or undefined when absent. Counts against the size budget. */
  readText(name: string): string | undefined {
    const entry = this.entries.get(name.toLowerCase());
    if (!entry) return undefined;
    return decodeXmlPart(this.inflate(entry), entry.name, this.label);
  }
}

/** XML parts are UTF-8, or UTF-16 with a byte order mark. */
function decodeXmlPart(bytes: Uint8Array, name: string, label: string): string {
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw new UploadRejection('unreadable_file', `The ${label} is damaged: part ${name} is not valid ${encoding.toUpperCase()} text.`, RESAVE_HINT);
  }
}
