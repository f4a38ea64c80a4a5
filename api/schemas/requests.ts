/**
 * Request schemas: the input of each operation in the `call` convention (path parameters as
 * top-level keys, the rest becoming the query for GET/DELETE and the body for POST/PUT).
 * The client validates with them before sending, the sandbox validates with them on arrival,
 * and the OpenAPI description is generated from them. What each field means, for assistants and
 * the OpenAPI document, is in fieldDescriptions.ts: the clients (the n8n nodes among them) bundle
 * these schemas without it. Each schema is built on first use (lazy.ts): a bundle loading the
 * operation table builds only the inputs it validates. Parts several inputs share are `once`
 * builders, so each input holds the one real instance (and the one description).
 */
import * as z from 'zod/v4/mini';
import {
  CADENCES,
  FORMATS,
  type DocumentType,
  ISO_DATETIME_PATTERN,
  LIMITS,
  PACK_CODES,
  PATH_ID_PATTERN,
  LETTER_OR_DIGIT,
  UUID_PATTERN,
  isBlankText,
  libraryContentProblem,
  nonEmptyString,
} from './common.js';
import { lazy, once } from './lazy.js';
import { superRefine, withMeta } from './miniExtras.js';

export const emptyInput = lazy(() => z.strictObject({}));

/**
 * A field fieldDescriptions.ts describes: an instance of its own, as .describe() would make, so
 * its words attach to this field alone (and the JSON Schema comes out as .describe() gave it).
 */
function described<T extends z.ZodMiniType>(schema: T): T {
  return schema.clone();
}

const tagsInput = once(() => described(z.pipe(
  z.union([z.array(nonEmptyString), z.string()]),
  z.transform((value: string[] | string) =>
    (Array.isArray(value) ? value : value.split(',')).map((tag) => tag.trim()).filter(Boolean),
  ))));

export const jobIdParam = lazy(() => z
  .string()
  .check(z.regex(UUID_PATTERN, 'must be a UUID such as 3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a')));
export const libraryIdParam = lazy(() => z
  .string()
  .check(z.regex(PATH_ID_PATTERN, 'must be a library document id as returned by ingest or the listing')));
export const slugParam = lazy(() => z
  .string()
  .check(z.regex(PATH_ID_PATTERN, 'must be a framework slug such as nist-csf-2 (see suggestFrameworks)')));

export const suggestFrameworksInput = lazy(() => z
  .object({
    query: described(z.optional(nonEmptyString)),
    jurisdiction: described(z.optional(nonEmptyString)),
    domain: described(z.optional(nonEmptyString)),
    regulator: described(z.optional(nonEmptyString)),
    description: described(z.optional(nonEmptyString)),
  })
  .check(superRefine((input, ctx) => {
    // The spec leaves open whether other fields alone are enough: only refuse a request with none.
    const anyCriterion = Object.values(input).some((v) => v !== undefined);
    if (!anyCriterion) {
      ctx.addIssue({ code: 'custom', path: ['query'], message: 'query is required', params: { code: 'missing_query' } });
    }
  })));

/** Used wrapped (`z.optional` in generateDocumentInput): describe it there, as what `generateDocumentInput.in.shape.organisation` wraps. */
export const organisationInput = lazy(() => described(z.strictObject({
  name: described(z.optional(nonEmptyString)),
  sector: described(z.optional(nonEmptyString)),
  country: described(z.optional(nonEmptyString)),
})));

/** Both naming variants of section 2.4; the wire body always uses `framework` and `type`. */
export const generateDocumentInput = lazy(() => {
  const fields = z
    .object({
      framework: described(z.optional(nonEmptyString)),
      standard: described(z.optional(nonEmptyString)),
      name: described(z.optional(nonEmptyString)),
      type: described(z.optional(nonEmptyString as unknown as z.ZodMiniType<DocumentType, DocumentType>)),
      documentType: described(z.optional(nonEmptyString as unknown as z.ZodMiniType<DocumentType, DocumentType>)),
      jurisdiction: described(z.optional(nonEmptyString)),
      company: described(z.optional(nonEmptyString)),
      sector: described(z.optional(nonEmptyString)),
      context: described(z.optional(z.string())),
      organisation: z.optional(organisationInput),
      humanize: described(z.optional(z.boolean())),
    })
    .check(superRefine((input, ctx) => {
      if (!input.framework && !input.standard && !input.name) {
        ctx.addIssue({
          code: 'custom',
          path: ['framework'],
          message: 'framework is required (aliases: standard, name)',
          params: { code: 'missing_framework' },
        });
      }
    }));
  return z.pipe(fields, z.transform(({ framework, standard, name, type, documentType, ...rest }: z.output<typeof fields>) => ({
    framework: (framework ?? standard ?? name) as string,
    ...(type ?? documentType ? { type: type ?? documentType } : {}),
    ...rest,
  })));
});

/**
 * A file to upload for mapping: bytes or a Blob (for example `fs.openAsBlob(path)`), with a
 * filename whose extension tells the kind. Checked by `checkUpload` before sending.
 */
export interface UploadFile {
  data: Uint8Array | ArrayBuffer | Blob;
  filename: string;
  contentType?: string;
}

const uploadFile = once(() => z.custom<UploadFile>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as UploadFile).filename === 'string' &&
    ((value as UploadFile).data instanceof Uint8Array ||
      (value as UploadFile).data instanceof ArrayBuffer ||
      (typeof Blob !== 'undefined' && (value as UploadFile).data instanceof Blob)),
  { message: 'file must be { data: Uint8Array | ArrayBuffer | Blob, filename: string }' },
));

export const mapDocumentInput = lazy(() => z
  .object({
    framework: described(z.optional(nonEmptyString)),
    content: described(z.optional(z.string())),
    title: described(z.optional(nonEmptyString)),
    file: described(z.optional(uploadFile())),
  })
  .check(superRefine((input, ctx) => {
    if (!input.framework) {
      ctx.addIssue({ code: 'custom', path: ['framework'], message: 'framework is required', params: { code: 'missing_framework' } });
    }
    if (input.file === undefined && (input.content === undefined || isBlankText(input.content))) {
      ctx.addIssue({
        code: 'custom',
        path: ['content'],
        message: 'give either content (text) or file (an upload)',
        params: { code: 'missing_content' },
      });
    }
    if (input.file !== undefined && input.content !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['file'],
        message: 'give content or file, not both',
        params: { code: 'invalid_request' },
      });
    }
  })));

const jobIdInput = once(() => described(jobIdParam));

export const getJobInput = lazy(() => z.strictObject({ jobId: jobIdInput() }));

export const downloadDocumentInput = lazy(() => z.strictObject({
  jobId: jobIdInput(),
  format: described(z.optional(z.enum(FORMATS))),
}));

/**
 * The client checks library text leniently (libraryContentProblem); the OpenAPI states the service's
 * rule, which the sandbox enforces in code points: minLength, maxLength and a letter or digit.
 */
const libraryContent = once(() => withMeta(z
  .string()
  .check(superRefine((text: string, ctx) => {
    const problem = libraryContentProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: `content ${problem.message}`, params: { code: problem.code } });
  })), {
  minLength: LIMITS.libraryMinChars,
  maxLength: LIMITS.libraryMaxChars,
  pattern: LETTER_OR_DIGIT,
}));

const libraryIdInput = once(() => described(libraryIdParam));
const categoryInput = once(() => described(z.optional(nonEmptyString)));

export const ingestLibraryDocumentInput = lazy(() => z.strictObject({
  title: described(nonEmptyString.check(z.maxLength(500))),
  content: described(libraryContent()),
  category: categoryInput(),
  tags: z.optional(tagsInput()),
  filename: described(z.optional(nonEmptyString.check(z.maxLength(1024)))),
}));

export const refreshLibraryDocumentInput = lazy(() => z.strictObject({
  id: libraryIdInput(),
  content: described(libraryContent()),
}));

export const listLibraryInput = lazy(() => z.strictObject({
  cursor: described(z.optional(nonEmptyString)),
  page: described(z.optional(z.int().check(z.gte(1)))),
  limit: described(z.optional(z.int().check(z.gte(1)))),
  category: categoryInput(),
  tag: described(z.optional(nonEmptyString)),
}));

export const getLibraryDocumentInput = lazy(() => z.strictObject({
  id: libraryIdInput(),
  include: described(z.optional(z.literal('content'))),
}));

export const deleteLibraryDocumentInput = lazy(() => z.strictObject({ id: libraryIdInput() }));

export const searchLibraryInput = lazy(() => z.strictObject({
  query: described(nonEmptyString),
  category: categoryInput(),
  tags: z.optional(tagsInput()),
  // The spec leaves the maximum open: the service enforces it.
  limit: described(z.optional(z.int().check(z.gte(1)))),
}));

export const getFrameworkInput = lazy(() => z.strictObject({ slug: described(slugParam) }));

const packInput = once(() => described(z.enum(PACK_CODES)));

export const createCheckoutInput = lazy(() => z.strictObject({ pack: packInput() }));

export const setAutoTopUpInput = lazy(() => z
  .object({
    enabled: described(z.boolean()),
    thresholdTokens: described(z.optional(z
      .int()
      .check(z.gte(LIMITS.autoTopUpMinThreshold, `must be at least ${LIMITS.autoTopUpMinThreshold.toLocaleString('en-US')} tokens`)))),
    pack: z.optional(packInput()),
  })
  .check(superRefine((input, ctx) => {
    if (!input.enabled) return;
    if (input.thresholdTokens === undefined) {
      ctx.addIssue({ code: 'custom', path: ['thresholdTokens'], message: 'thresholdTokens is required when enabled is true', params: { code: 'invalid_threshold' } });
    }
    if (input.pack === undefined) {
      ctx.addIssue({ code: 'custom', path: ['pack'], message: 'pack is required when enabled is true', params: { code: 'invalid_pack' } });
    }
  })));

/** Date.parse rolls 2026-02-30 over to March 2: the day must exist in its month. */
function realCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export const setCalendarInput = lazy(() => z.strictObject({
  cadence: described(z.enum(CADENCES)),
  firstReviewAt: described(z.optional(z
    .string()
    .check(
      z.regex(ISO_DATETIME_PATTERN, 'must be an ISO 8601 timestamp such as 2026-12-01T09:00:00Z'),
      z.refine((value: string) => !Number.isNaN(Date.parse(value)) && realCalendarDate(value), 'firstReviewAt is not a real date (check the day of the month)'),
    ))),
}));
