/** Rejections of the library engine, each with the HTTP status the sandbox answers it with. */

type LibraryErrorCode =
  | 'empty_document'
  | 'content_too_short'
  | 'content_too_long'
  | 'duplicate_document'
  | 'library_full'
  | 'document_not_found'
  | 'document_unchanged'
  | 'document_busy'
  | 'invalid_query'
  | 'invalid_limit'
  | 'invalid_cursor';

const STATUS: Record<LibraryErrorCode, number> = {
  empty_document: 400,
  content_too_short: 400,
  content_too_long: 400,
  // 409: the request conflicts with the library's current state and the caller can resolve it
  // (refresh the holder / delete documents). Not 429 or 5xx, which retrying clients would repeat.
  duplicate_document: 409,
  library_full: 409,
  document_not_found: 404,
  document_unchanged: 409,
  document_busy: 409,
  invalid_query: 400,
  invalid_limit: 400,
  invalid_cursor: 400,
};

export class LibraryError extends Error {
  override readonly name = 'LibraryError';
  /** The HTTP status the server answers with. */
  readonly status: number;

  constructor(
    readonly code: LibraryErrorCode,
    message: string,
    readonly hint: string,
    /** Extra fields for the error envelope, e.g. `{documentId}` of the holder of duplicate content. */
    readonly details: Record<string, string | number> = {},
  ) {
    super(message);
    this.status = STATUS[code];
  }
}
