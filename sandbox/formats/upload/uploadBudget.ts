/**
 * What one upload may cost to read: bytes actually produced by decompression (counted as they are
 * produced, never taken from what the file declares) and characters of extracted text. The time
 * limit is enforced by the extraction pool, which owns the clock and the worker.
 */
import { UploadRejection } from './uploadRejection.js';

export interface UploadLimits {
  /** Bytes decompressed from one upload, all parts and streams together. */
  maxInflatedBytes: number;
  /** Characters of extracted text (a 2 MB JSON mapping request carries about as many). */
  maxCharacters: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  maxInflatedBytes: 50 * 1024 * 1024,
  maxCharacters: 2_000_000,
};

const SPLIT_HINT = 'Split the document into smaller files, or map only the relevant part.';

export function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/** The rejection when decompression would pass the byte limit; `what` names the file. */
function inflatedBytesRejection(what: string, limits: UploadLimits): UploadRejection {
  return new UploadRejection(
    'upload_too_large',
    `${what} expands to more than ${megabytes(limits.maxInflatedBytes)} when decompressed (limit: inflated bytes, ${limits.maxInflatedBytes.toLocaleString('en-US')}).`,
    SPLIT_HINT,
    'inflated_bytes',
  );
}

function charactersRejection(what: string, limits: UploadLimits): UploadRejection {
  return new UploadRejection(
    'upload_too_large',
    `${what} holds more than ${limits.maxCharacters.toLocaleString('en-US')} characters of text (limit: extracted characters).`,
    SPLIT_HINT,
    'extracted_characters',
  );
}

/** Running totals for one upload; every decoder asks it how much it may still produce. */
export class UploadBudget {
  private inflated = 0;
  private characters = 0;

  constructor(
    readonly limits: UploadLimits,
    private readonly what: string,
  ) {}

  /** Bytes that may still be inflated. */
  get remainingBytes(): number {
    return this.limits.maxInflatedBytes - this.inflated;
  }

  get inflatedBytes(): number {
    return this.inflated;
  }

  addInflated(bytes: number): void {
    this.inflated += bytes;
    if (this.inflated > this.limits.maxInflatedBytes) throw inflatedBytesRejection(this.what, this.limits);
  }

  addCharacters(count: number): void {
    this.characters += count;
    if (this.characters > this.limits.maxCharacters) throw charactersRejection(this.what, this.limits);
  }

  overBytes(): UploadRejection {
    return inflatedBytesRejection(this.what, this.limits);
  }
}
