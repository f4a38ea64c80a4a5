/**
 * Guarded reading of ZIP-based uploads (DOCX, XLSX, PPTX). The central directory is listed first
 * without inflating anything; entry count and the declared sizes of the parts we read are capped
 * (fflate inflates into a buffer of the declared size, so a part can never expand beyond it).
 */
import { unzipSync } from 'fflate';
import { UploadRejection } from './uploadRejection.js';

export const ZIP_LIMITS = {
  maxEntries: 10_000,
  /** Uncompressed bytes read from one upload, over all the parts extraction needs. */
  maxUncompressedBytes: 50 * 1024 * 1024,
} as const;

interface EntryInfo {
  name: string;
  originalSize: number;
}

class TooManyEntries extends Error {}

function describeFailure(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class ZipPackage {
  private readonly entries = new Map<string, EntryInfo>();
  private budget: number = ZIP_LIMITS.maxUncompressedBytes;

  private constructor(
    private readonly data: Uint8Array,
    private readonly label: string,
  ) {}

  /** Lists the archive; `label` names the document kind in messages ("Word document"). */
  static open(data: Uint8Array, label: string): ZipPackage {
    const zip = new ZipPackage(data, label);
    let count = 0;
    try {
      unzipSync(data, {
        filter: (file) => {
          if (++count > ZIP_LIMITS.maxEntries) throw new TooManyEntries();
          zip.entries.set(file.name.replace(/^\/+/, '').toLowerCase(), { name: file.name, originalSize: file.originalSize });
          return false;
        },
      });
    } catch (error) {
      if (error instanceof TooManyEntries) {
        throw new UploadRejection(
          'upload_too_large',
          `The ${label} holds more than ${ZIP_LIMITS.maxEntries} archive entries.`,
          'Upload the document itself, not an archive of many files; split very large workbooks or decks.',
        );
      }
      throw new UploadRejection('unreadable_file', `The ${label} is not a valid ZIP package (${describeFailure(error)}); the file is damaged or not really a ${label}.`, 'Open the file in its application, save it again, and upload the saved copy.');
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

  /** The text of one XML part, or undefined when absent. Counts against the size budget. */
  readText(name: string): string | undefined {
    const entry = this.entries.get(name.toLowerCase());
    if (!entry) return undefined;
    if (entry.originalSize > this.budget) {
      throw new UploadRejection(
        'upload_too_large',
        `The ${this.label} expands to more than ${ZIP_LIMITS.maxUncompressedBytes / (1024 * 1024)} MB of content.`,
        'Split the document into smaller files, or map only the relevant part.',
      );
    }
    this.budget -= entry.originalSize;
    let bytes: Uint8Array | undefined;
    try {
      bytes = unzipSync(this.data, { filter: (file) => file.name === entry.name })[entry.name];
    } catch (error) {
      throw new UploadRejection('unreadable_file', `The ${this.label} is damaged: part ${entry.name} cannot be decompressed (${describeFailure(error)}).`, 'Open the file in its application, save it again, and upload the saved copy.');
    }
    return decodeXmlPart(bytes ?? new Uint8Array(), entry.name, this.label);
  }
}

/** XML parts are UTF-8, or UTF-16 with a byte order mark. */
function decodeXmlPart(bytes: Uint8Array, name: string, label: string): string {
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw new UploadRejection('unreadable_file', `The ${label} is damaged: part ${name} is not valid ${encoding.toUpperCase()} text.`, 'Open the file in its application, save it again, and upload the saved copy.');
  }
}
