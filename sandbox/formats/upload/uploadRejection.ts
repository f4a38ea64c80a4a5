export type UploadRejectionCode = 'unsupported_file_type' | 'unreadable_file' | 'upload_too_large';

/** Why an uploaded file cannot be mapped; the server turns it into the error envelope (code, message, hint). */
export class UploadRejection extends Error {
  override readonly name = 'UploadRejection';
  readonly code: UploadRejectionCode;
  readonly hint: string;

  constructor(code: UploadRejectionCode, message: string, hint: string) {
    super(message);
    this.code = code;
    this.hint = hint;
  }
}
