import * as z from 'zod/v4/mini';
import en from 'zod/v4/locales/en.js';
import { lazy } from './lazy.js';

// The namespace import lets a bundle keep only the zod it uses (the n8n nodes leave out zod's
// JSON Schema code and its 40 locales); it also skips zod's own `config(en())`, so it is done here:
// validation messages (api/validation.ts) quote zod's English texts.
z.config(en());

/** Where the service serves the API: the operation table's paths are relative to it. */
export const API_PREFIX = '/api/public/v1';

/** Limits the spec states; the sandbox enforces the same numbers. */
export const LIMITS = {
  libraryMinChars: 200,
  libraryMaxChars: 300_000,
  uploadMaxBytes: 10 * 1024 * 1024,
  autoTopUpMinThreshold: 100_000,
  libraryDocumentsSandbox: 25,
  libraryDocumentsLive: 500,
} as const;

/**
 * Characters are Unicode code points, as JSON Schema's minLength/maxLength and a person count them
 * (an emoji is one character, not two UTF-16 code units). The sandbox enforces its limits in them.
 */
export function characterCount(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}

/**
 * A letter or a digit, of any script: text without one is blank, whatever else it holds (white
 * space, invisible characters such as zero-width spaces, punctuation, symbols such as the Braille
 * blank U+2800, combining marks standing alone). As a JSON Schema pattern (ECMA-262 with the u flag)
 * it is the service's rule too.
 */
export const LETTER_OR_DIGIT = '[\\p{L}\\p{N}]';
const LETTER_OR_DIGIT_PATTERN = new RegExp(LETTER_OR_DIGIT, 'u');

/** What a blank text is, in the words every refusal of one uses. */
export const BLANK_TEXT = 'has no letter or digit in any script (only white space, invisible characters, punctuation, symbols or marks)';

/** Text with no letter or digit of any script (300 zero-width spaces, 300 Braille blanks): nothing to map or index. */
export function isBlankText(text: string): boolean {
  return !LETTER_OR_DIGIT_PATTERN.test(text);
}

export type LibraryContentProblem = { code: 'empty_document' | 'content_too_short' | 'content_too_long'; message: string };

/**
 * Why a library document's text would be refused, or undefined. The service counts code points; a
 * client must never refuse what a service counting either way could accept, so this check is lenient
 * at both bounds (the higher count, UTF-16 code units, against the minimum; the lower, code points,
 * against the maximum) and its message says which count it used.
 */
export function libraryContentProblem(text: string): LibraryContentProblem | undefined {
  if (isBlankText(text)) {
    return { code: 'empty_document', message: BLANK_TEXT };
  }
  if (text.length < LIMITS.libraryMinChars) {
    return { code: 'content_too_short', message: `has ${text.length} characters even counted as UTF-16 code units (the higher count); the library needs at least ${LIMITS.libraryMinChars} characters` };
  }
  if (text.length > LIMITS.libraryMaxChars) {
    const characters = characterCount(text);
    if (characters > LIMITS.libraryMaxChars) {
      return {
        code: 'content_too_long',
        message: `has ${characters.toLocaleString('en-US')} characters counted as Unicode code points (the lower count); the library holds at most ${LIMITS.libraryMaxChars.toLocaleString('en-US')} characters`,
      };
    }
  }
  return undefined;
}

export const PACK_CODES = ['pack10', 'pack25', 'pack50', 'pack100', 'pack200', 'pack500'] as const;
export type PackCode = (typeof PACK_CODES)[number];

/** Section 2.8: price in US dollars and tokens credited, bonus included. */
export const PACKS: Record<PackCode, { priceUsd: number; tokens: number; bonusPercent: number }> = {
  pack10: { priceUsd: 10, tokens: 3_300_000, bonusPercent: 0 },
  pack25: { priceUsd: 25, tokens: 8_300_000, bonusPercent: 0 },
  pack50: { priceUsd: 50, tokens: 16_700_000, bonusPercent: 0 },
  pack100: { priceUsd: 100, tokens: 33_300_000, bonusPercent: 0 },
  pack200: { priceUsd: 200, tokens: 70_000_000, bonusPercent: 5 },
  pack500: { priceUsd: 500, tokens: 183_300_000, bonusPercent: 10 },
};

/** What the sandbox extracts text from: the four OOXML/PDF kinds, and plain text. */
export type UploadFileKind = 'docx' | 'pdf' | 'xlsx' | 'pptx' | 'text';

export interface UploadKind {
  extension: string;
  contentType: string;
  label: string;
  kind: UploadFileKind;
}

/**
 * The file kinds the service accepts for mapping (DOCX, PDF, Excel, PowerPoint, text): one list, so
 * the client's check before sending and the sandbox's on arrival can never disagree.
 */
export const UPLOAD_KINDS: readonly UploadKind[] = [
  { extension: '.docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', label: 'Word', kind: 'docx' },
  { extension: '.pdf', contentType: 'application/pdf', label: 'PDF', kind: 'pdf' },
  { extension: '.xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', label: 'Excel', kind: 'xlsx' },
  { extension: '.pptx', contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', label: 'PowerPoint', kind: 'pptx' },
  { extension: '.txt', contentType: 'text/plain; charset=utf-8', label: 'text', kind: 'text' },
  { extension: '.md', contentType: 'text/markdown; charset=utf-8', label: 'Markdown', kind: 'text' },
  { extension: '.markdown', contentType: 'text/markdown; charset=utf-8', label: 'Markdown', kind: 'text' },
  { extension: '.csv', contentType: 'text/csv; charset=utf-8', label: 'CSV', kind: 'text' },
];

/**
 * The document types the service lists today (GET /capabilities `documentTypes`; the sandbox serves
 * exactly these). The service may add types, so `DocumentType` is widened: editors offer these, and
 * any other string the service lists still type-checks.
 */
export const DOCUMENT_TYPES = [
  'framework_reference',
  'information_security_policy',
  'access_control_policy',
  'incident_response_plan',
  'data_protection_policy',
  'business_continuity_plan',
  'risk_management_policy',
  'vendor_management_policy',
  'acceptable_use_policy',
  'data_retention_policy',
  'change_management_policy',
  'security_awareness_training_policy',
] as const;
export type KnownDocumentType = (typeof DOCUMENT_TYPES)[number];
// `string & {}` keeps the literals in editors' suggestions while any string stays assignable.
export type DocumentType = KnownDocumentType | (string & {});

export const FORMATS = ['json', 'md', 'pdf', 'docx'] as const;
export type DownloadFormat = (typeof FORMATS)[number];

export const CADENCES = ['none', 'monthly', 'quarterly'] as const;
export type Cadence = (typeof CADENCES)[number];

export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const KEY_MODES = ['sandbox', 'live'] as const;
export type KeyMode = (typeof KEY_MODES)[number];

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Library ids and framework slugs travel in paths: keep them to URL-safe characters. */
export const PATH_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;
/** ISO 8601 date-time with seconds optional, fraction optional, and a zone (Z or ±hh:mm). */
export const ISO_DATETIME_PATTERN =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

export const nonEmptyString = lazy(() => z.string().check(z.trim(), z.minLength(1)));

/**
 * A combined policy set (one mapping upload built from several repo files) marks where each file
 * starts with a line `=== FILE: <repo path> ===`, so the mapping report can cite the source file.
 */
export const SOURCE_FILE_HEADER_PATTERN = /^=== FILE: (.+?) ===$/;
export function sourceFileHeader(path: string): string {
  return `=== FILE: ${path.replace(/[\r\n]/g, ' ')} ===`;
}
