/**
 * The error half of the operation table: what each status means for every operation, and each
 * operation's own codes. A module of its own so the client bundles (n8n, actions) leave the prose
 * out: the sandbox's OpenAPI description and the generated ServiceErrorCode union read it.
 */
import type { OperationId } from './operations.js';
import { LIMITS } from './schemas/common.js';

/** The error statuses the service answers with; each documents its codes in SHARED_ERRORS and OPERATION_ERRORS. */
export type ErrorStatus = '400' | '401' | '402' | '404' | '409' | '413' | '422' | '429' | '500' | '503';

/** The service's error codes at one status, and what they mean for the caller. */
export interface ErrorDoc {
  readonly codes: readonly string[];
  readonly description: string;
}

/** What each error status means for every operation; an operation's own (OPERATION_ERRORS) replace it there. */
export const SHARED_ERRORS: Readonly<Record<ErrorStatus, ErrorDoc>> = {
  '400': {
    codes: ['invalid_json', 'missing_query', 'missing_framework', 'unknown_document_type', 'unsupported_format', 'invalid_job_id', 'content_too_short', 'content_too_long', 'invalid_limit', 'invalid_query', 'framework_not_verified', 'unsupported_file_type'],
    description: 'Invalid request: malformed JSON (`invalid_json`) or parameters (`missing_query`, `missing_framework`, `unknown_document_type`, `unsupported_format`, `invalid_job_id`, `content_too_short`, `content_too_long`, `invalid_limit`, `invalid_query`, `framework_not_verified`, `unsupported_file_type`, ...).',
  },
  '401': { codes: ['missing_api_key', 'invalid_api_key'], description: 'Missing (`missing_api_key`) or invalid (`invalid_api_key`) API key.' },
  '402': {
    codes: ['account_read_only', 'insufficient_balance'],
    description: 'Live keys: the balance is zero and the account is read-only (`account_read_only`), or below the price of this call (`insufficient_balance`). Nothing was charged.',
  },
  '404': {
    codes: ['not_found', 'job_not_found', 'document_not_found', 'framework_not_found'],
    description: "Unknown path (`not_found`), job (`job_not_found`), document (`document_not_found`) or framework (`framework_not_found`); another key's ids answer exactly like unknown ones.",
  },
  '409': {
    codes: ['job_already_running', 'not_ready', 'generation_failed', 'duplicate_document', 'library_full', 'document_unchanged', 'document_busy'],
    description: 'Conflicting or unready state: `job_already_running`, `not_ready`, `generation_failed`, `duplicate_document` (with `documentId` and `jobId` of the holder), `library_full`, `document_unchanged`, `document_busy`.',
  },
  '413': {
    codes: ['payload_too_large', 'upload_too_large'],
    description: `Body too large (\`payload_too_large\`; JSON 2 MB, uploads ${LIMITS.uploadMaxBytes / 1024 / 1024} MB) or file too large (\`upload_too_large\`).`,
  },
  '422': { codes: ['extraction_timeout'], description: 'The upload could not be read within the time limit (`extraction_timeout`).' },
  '429': {
    codes: ['rate_limited', 'quota_exceeded', 'auth_blocked'],
    description: 'Rate limit (`rate_limited`), generation quota (`quota_exceeded`) or bad-key block (`auth_blocked`: after too many invalid keys from one address, further invalid keys from it are refused for a while; valid keys are served). Honour Retry-After.',
  },
  '500': { codes: ['internal_error'], description: 'Service-side fault (`internal_error`); retry with backoff.' },
  '503': { codes: ['service_unavailable'], description: 'Service temporarily unavailable (`service_unavailable`); retry with backoff.' },
};

/** Each operation's own codes per status; each replaces the shared description of the status there. */
export const OPERATION_ERRORS: Readonly<Partial<Record<OperationId, Partial<Record<ErrorStatus, ErrorDoc>>>>> = {
  mapDocument: {
    '400': {
      codes: ['missing_framework', 'missing_content', 'framework_not_verified', 'unsupported_file_type', 'unreadable_file', 'empty_document'],
      description: '`missing_framework`, `missing_content`; `framework_not_verified`: the framework has no verified control set, `closest` lists the verified frameworks nearest the request; `unsupported_file_type`: a kind other than DOCX, PDF, XLSX, PPTX or text (legacy .doc/.xls/.ppt included); `unreadable_file`: a damaged file or one whose content is not its claimed kind; `empty_document`: no text could be extracted. Nothing was charged.',
    },
    '404': { codes: ['framework_not_found'], description: '`framework_not_found`: no framework matches; `closest` lists the verified frameworks nearest the request.' },
    '413': {
      codes: ['upload_too_large', 'payload_too_large'],
      description: `\`upload_too_large\`: the file is over ${LIMITS.uploadMaxBytes / 1024 / 1024} MB (${LIMITS.uploadMaxBytes.toLocaleString('en-US')} bytes), or reading it crossed a limit named in \`limit\` (\`inflated_bytes\`, \`extracted_characters\`, \`worker_memory\`, \`zip_entries\`); \`payload_too_large\`: a JSON body over 2 MB. Nothing was charged.`,
    },
    '422': { codes: ['extraction_timeout'], description: '`extraction_timeout` (`limit`: `extraction_seconds`): reading the file took over the time limit. Nothing was charged.' },
    '429': {
      codes: ['rate_limited', 'uploads_busy', 'mappings_busy'],
      description: "`rate_limited`; `uploads_busy`: this key's uploads fill its share of the upload readers and its queue; `mappings_busy`: this key already has 4 mappings waiting for a mapping worker. Retry after Retry-After seconds. Nothing was charged.",
    },
  },
  ingestLibraryDocument: {
    '400': {
      codes: ['invalid_json', 'unknown_field', 'invalid_request', 'empty_document', 'content_too_short', 'content_too_long'],
      description: `Invalid request (\`invalid_json\`, \`unknown_field\`, \`invalid_request\`), blank content (\`empty_document\`: no letter or digit in any script), or content under ${LIMITS.libraryMinChars} (\`content_too_short\`) or over ${LIMITS.libraryMaxChars.toLocaleString('en-US')} characters (\`content_too_long\`); characters are Unicode code points. Nothing was charged.`,
    },
    '409': {
      codes: ['duplicate_document', 'library_full'],
      description: '`duplicate_document`: the same content (after normalising line ends, a BOM, trailing whitespace and trailing newlines) is already held; `documentId` (and `jobId` of its last job) name the holder, refresh it instead. `library_full`: the key holds its capacity (25 documents sandbox, 500 live; pending ingests count), with `documents` and `capacity`. Nothing was charged.',
    },
  },
  refreshLibraryDocument: {
    '400': {
      codes: ['empty_document', 'content_too_short', 'content_too_long'],
      description: `Blank content (\`empty_document\`: no letter or digit in any script), or content under ${LIMITS.libraryMinChars} (\`content_too_short\`) or over ${LIMITS.libraryMaxChars.toLocaleString('en-US')} characters (\`content_too_long\`); characters are Unicode code points. Nothing was charged.`,
    },
    '404': { codes: ['document_not_found'], description: '`document_not_found`: no such document for this key.' },
    '409': {
      codes: ['document_unchanged', 'duplicate_document', 'document_busy'],
      description: '`document_unchanged`: the content equals the current version (nothing to re-index); `duplicate_document`: another document holds this content (`documentId`); `document_busy`: an ingest or refresh of this document is still running. Nothing was charged.',
    },
  },
  listLibrary: {
    '400': {
      codes: ['invalid_limit', 'invalid_cursor', 'invalid_request'],
      description: '`invalid_limit` (limit from 1 to 100, default 50), `invalid_cursor` (pass `nextCursor` unchanged), `invalid_request` (page other than 1: the listing pages by cursor).',
    },
  },
  getLibraryDocument: { '404': { codes: ['document_not_found'], description: '`document_not_found`: no such document for this key.' } },
  deleteLibraryDocument: { '404': { codes: ['document_not_found'], description: '`document_not_found`: no such document for this key.' } },
  searchLibrary: {
    '400': {
      codes: ['invalid_limit', 'invalid_query'],
      description: '`invalid_limit`: limit must be an integer from 1 to 50 (default 10; above 50 is refused, never clamped); `invalid_query`: no searchable word, over 500 characters or over 16 terms. Nothing was charged.',
    },
  },
};
