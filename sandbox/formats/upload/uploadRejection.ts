export type UploadRejectionCode = 'unsupported_file_type' | 'unreadable_file' | 'upload_too_large' | 'extraction_timeout';

/** Which reading limit an upload crossed; the error envelope names it in `limit`. */
export type UploadLimitName = 'inflated_bytes' | 'extracted_characters' | 'extraction_seconds' | 'worker_memory' | 'zip_entries';

/** Why an uploaded file cannot be mapped; the server turns it into the error envelope (code, message, hint). */
export class UploadRejection extends Error {
  override readonly name = 'UploadRejection';
  readonly code: UploadRejectionCode;
  readonly hint: string;
  readonly limit: UploadLimitName | undefined;

  constructor(code: UploadRejectionCode, message: string, hint: string, limit?: UploadLimitName) {
    super(message);
    this.code = code;
    this.hint = hint;
    this.limit = limit;
  }
}
