/**
 * Request schemas: the input of each operation in the `call` convention (path parameters as
 * top-level keys, the rest becoming the query for GET/DELETE and the body for POST/PUT).
 * The client validates with them before sending, the sandbox validates with them on arrival,
 * and the OpenAPI description is generated from them.
 */
import * as z from 'zod/v4';
import {
  CADENCES,
  FORMATS,
  type DocumentType,
  ISO_DATETIME_PATTERN,
  LIMITS,
  PACK_CODES,
  PATH_ID_PATTERN,
  READABLE_CHARACTER,
  UUID_PATTERN,
  isBlankText,
  libraryContentProblem,
  nonEmptyString,
} from './common.js';

export const emptyInput = z.strictObject({});

const tagsInput = z
  .union([z.array(nonEmptyString), z.string()])
  .transform((value) =>
    (Array.isArray(value) ? value : value.split(',')).map((tag) => tag.trim()).filter(Boolean),
  )
  .meta({ description: 'Tags, as an array or a comma-separated string, e.g. ["security", "access"]. Free text you choose; the tags already in use are in listLibrary.' });

export const jobIdParam = z
  .string()
  .regex(UUID_PATTERN, 'must be a UUID such as 3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a');
export const libraryIdParam = z
  .string()
  .regex(PATH_ID_PATTERN, 'must be a library document id as returned by ingest or the listing');
export const slugParam = z
  .string()
  .regex(PATH_ID_PATTERN, 'must be a framework slug such as nist-csf-2 (see suggestFrameworks)');

export const suggestFrameworksInput = z
  .object({
    query: nonEmptyString.optional().describe('What the organisation needs, in plain language, e.g. "health data privacy in the US". From the user.'),
    jurisdiction: nonEmptyString.optional().describe('Country or region to narrow the search, e.g. "US" or "EU". From the user.'),
    domain: nonEmptyString.optional().describe('Sector or subject, e.g. "healthcare" or "payments". From the user.'),
    regulator: nonEmptyString.optional().describe('A regulator to prefer, e.g. "HHS". From the user.'),
    description: nonEmptyString.optional().describe('A longer description of the organisation, e.g. "a 40-person telehealth startup storing patient records". From the user.'),
  })
  .superRefine((input, ctx) => {
    // The spec leaves open whether other fields alone are enough: only refuse a request with none.
    const anyCriterion = Object.values(input).some((v) => v !== undefined);
    if (!anyCriterion) {
      ctx.addIssue({ code: 'custom', path: ['query'], message: 'query is required', params: { code: 'missing_query' } });
    }
  });

export const organisationInput = z.strictObject({
  name: nonEmptyString.optional().describe('The organisation\'s name, e.g. "Acme Health". From the user.'),
  sector: nonEmptyString.optional().describe('Its sector, e.g. "healthcare". From the user.'),
  country: nonEmptyString.optional().describe('Its country, e.g. "US". From the user.'),
}).describe('The organisation to personalise the document for (name, sector, country); from the user.');

/** Both naming variants of section 2.4; the wire body always uses `framework` and `type`. */
export const generateDocumentInput = z
  .object({
    framework: nonEmptyString.optional().describe('The framework to write for: a slug or name, e.g. "hipaa-security" or "ISO 27001". From getCapabilities (verifiedFrameworks) or suggestFrameworks.'),
    standard: nonEmptyString.optional().describe('Alias of framework.'),
    name: nonEmptyString.optional().describe('Alias of framework.'),
    type: (nonEmptyString as unknown as z.ZodType<DocumentType, DocumentType>).optional().describe('The document type id, e.g. "access_control_policy"; the service\'s default when left out. The ids are listed by getCapabilities (documentTypes).'),
    documentType: (nonEmptyString as unknown as z.ZodType<DocumentType, DocumentType>).optional().describe('Alias of type.'),
    jurisdiction: nonEmptyString.optional().describe('Jurisdiction to write for, e.g. "US". From the user.'),
    company: nonEmptyString.optional().describe('The company named in the document, e.g. "Acme Health". From the user.'),
    sector: nonEmptyString.optional().describe('The company\'s sector, e.g. "healthcare". From the user.'),
    context: z.string().optional().describe('Free text the document should take into account, e.g. "we run on AWS; 12 employees". From the user.'),
    organisation: organisationInput.optional(),
    humanize: z.boolean().optional().describe('Rewrite the text in a plainer, less formulaic style (true) or not (false, the default).'),
  })
  .superRefine((input, ctx) => {
    if (!input.framework && !input.standard && !input.name) {
      ctx.addIssue({
        code: 'custom',
        path: ['framework'],
        message: 'framework is required (aliases: standard, name)',
        params: { code: 'missing_framework' },
      });
    }
  })
  .transform(({ framework, standard, name, type, documentType, ...rest }) => ({
    framework: (framework ?? standard ?? name) as string,
    ...(type ?? documentType ? { type: type ?? documentType } : {}),
    ...rest,
  }));

/**
 * A file to upload for mapping: bytes or a Blob (for example `fs.openAsBlob(path)`), with a
 * filename whose extension tells the kind. Checked by `checkUpload` before sending.
 */
export interface UploadFile {
  data: Uint8Array | ArrayBuffer | Blob;
  filename: string;
  contentType?: string;
}

const uploadFile = z.custom<UploadFile>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as UploadFile).filename === 'string' &&
    ((value as UploadFile).data instanceof Uint8Array ||
      (value as UploadFile).data instanceof ArrayBuffer ||
      (typeof Blob !== 'undefined' && (value as UploadFile).data instanceof Blob)),
  { message: 'file must be { data: Uint8Array | ArrayBuffer | Blob, filename: string }' },
);

export const mapDocumentInput = z
  .object({
    framework: nonEmptyString.optional().describe('A verified framework slug, e.g. "hipaa-security". From getCapabilities (verifiedFrameworks).'),
    content: z.string().optional().describe('The policy text to map, e.g. the text of a policy the user pasted or a library document\'s content (getLibraryDocument with include=content).'),
    title: nonEmptyString.optional().describe('A title for the report, e.g. "Access control policy". Your choice.'),
    file: uploadFile.optional().describe('An upload (DOCX, PDF, Excel, PowerPoint or text) instead of content.'),
  })
  .superRefine((input, ctx) => {
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
  });

const jobIdInput = jobIdParam.describe('The job id (a UUID such as 3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a), as returned by generateDocument, mapDocument, ingestLibraryDocument or refreshLibraryDocument.');

export const getJobInput = z.strictObject({ jobId: jobIdInput });

export const downloadDocumentInput = z.strictObject({
  jobId: jobIdInput,
  format: z.enum(FORMATS).optional().describe('The download format: json (parsed), md (text), pdf or docx (files); json when left out.'),
});

/**
 * The client checks library text leniently (libraryContentProblem); the OpenAPI states the service's
 * rule, which the sandbox enforces in code points: minLength, maxLength and a readable character.
 */
const libraryContent = z
  .string()
  .superRefine((text, ctx) => {
    const problem = libraryContentProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: `content ${problem.message}`, params: { code: problem.code } });
  })
  .meta({
    minLength: LIMITS.libraryMinChars,
    maxLength: LIMITS.libraryMaxChars,
    pattern: READABLE_CHARACTER,
    description: `The document text: ${LIMITS.libraryMinChars} to ${LIMITS.libraryMaxChars.toLocaleString('en-US')} characters (Unicode code points), not blank (white space or invisible characters only).`,
  });

const libraryIdInput = libraryIdParam.describe('The library document id, e.g. "doc_70eaed12", as returned by listLibrary, searchLibrary or ingestLibraryDocument\'s job.');
const categoryInput = nonEmptyString.optional().describe('A library category, e.g. "Policies". Free text; the categories in use are in listLibrary.');

export const ingestLibraryDocumentInput = z.strictObject({
  title: nonEmptyString.max(500).describe('The document\'s title, e.g. "Access control policy". From the document (its first heading) or the user.'),
  content: libraryContent.describe(`The document's full text, ${LIMITS.libraryMinChars} to ${LIMITS.libraryMaxChars.toLocaleString('en-US')} characters (Unicode code points), not only white space. From the user or a file they shared.`),
  category: categoryInput,
  tags: tagsInput.optional(),
  filename: nonEmptyString.max(1024).optional().describe('Where the document lives, e.g. "policies/access.md"; shown in listings.'),
});

export const refreshLibraryDocumentInput = z.strictObject({
  id: libraryIdInput,
  content: libraryContent.describe(`The document's new full text, ${LIMITS.libraryMinChars} to ${LIMITS.libraryMaxChars.toLocaleString('en-US')} characters (Unicode code points), not only white space.`),
});

export const listLibraryInput = z.strictObject({
  cursor: nonEmptyString.optional().describe('Where the next page starts: the nextCursor of the previous listLibrary answer.'),
  page: z.int().min(1).optional().describe('Page number, from 1, e.g. 2 (when the service pages by number).'),
  limit: z.int().min(1).optional().describe('Documents per page, e.g. 20.'),
  category: categoryInput,
  tag: nonEmptyString.optional().describe('Only documents with this tag, e.g. "security".'),
});

export const getLibraryDocumentInput = z.strictObject({
  id: libraryIdInput,
  include: z.literal('content').optional().describe('"content" to include the stored text as well as the metadata.'),
});

export const deleteLibraryDocumentInput = z.strictObject({ id: libraryIdInput });

export const searchLibraryInput = z.strictObject({
  query: nonEmptyString.describe('What to look for, in words, e.g. "encryption at rest" or "who reviews access quarterly". From the user.'),
  category: categoryInput,
  tags: tagsInput.optional(),
  // The spec leaves the maximum open: the service enforces it.
  limit: z.int().min(1).optional().describe('How many documents to return at most, e.g. 5.'),
});

export const getFrameworkInput = z.strictObject({ slug: slugParam.describe('The framework slug, e.g. "hipaa-security". From getCapabilities (verifiedFrameworks) or suggestFrameworks.') });

const packInput = z.enum(PACK_CODES).describe('The credit pack: pack10 (US$10) to pack500 (US$500); getBilling lists each pack\'s tokens.');

export const createCheckoutInput = z.strictObject({ pack: packInput });

export const setAutoTopUpInput = z
  .object({
    enabled: z.boolean().describe('true to top up automatically, false to stop.'),
    thresholdTokens: z
      .int()
      .min(LIMITS.autoTopUpMinThreshold, `must be at least ${LIMITS.autoTopUpMinThreshold.toLocaleString('en-US')} tokens`)
      .optional()
      .describe(`Top up when the balance drops below this many tokens, at least ${LIMITS.autoTopUpMinThreshold.toLocaleString('en-US')}, e.g. 500000. Required when enabled is true; from the user.`),
    pack: packInput.optional(),
  })
  .superRefine((input, ctx) => {
    if (!input.enabled) return;
    if (input.thresholdTokens === undefined) {
      ctx.addIssue({ code: 'custom', path: ['thresholdTokens'], message: 'thresholdTokens is required when enabled is true', params: { code: 'invalid_threshold' } });
    }
    if (input.pack === undefined) {
      ctx.addIssue({ code: 'custom', path: ['pack'], message: 'pack is required when enabled is true', params: { code: 'invalid_pack' } });
    }
  });

/** Date.parse rolls 2026-02-30 over to March 2: the day must exist in its month. */
function realCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export const setCalendarInput = z.strictObject({
  cadence: z.enum(CADENCES).describe('How often a review is due: none, monthly or quarterly. From the user.'),
  firstReviewAt: z
    .string()
    .regex(ISO_DATETIME_PATTERN, 'must be an ISO 8601 timestamp such as 2026-12-01T09:00:00Z')
    .refine((value) => !Number.isNaN(Date.parse(value)) && realCalendarDate(value), 'firstReviewAt is not a real date (check the day of the month)')
    .optional()
    .describe('When the first review is due, ISO 8601, e.g. "2026-12-01T09:00:00Z". From the user.'),
});
