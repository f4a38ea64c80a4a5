/**
 * Document formats of the sandbox: rendering generated documents and mapping reports
 * (markdown, PDF, DOCX) and extracting plain text from uploaded files for mapping.
 */
export { CONTENT_TYPES } from './contentTypes.js';
export { renderMarkdown } from './markdown.js';
export { renderPdf } from './pdf/renderPdf.js';
export { renderDocx } from './docx/renderDocx.js';
export { UploadRejection, type UploadRejectionCode } from './upload/uploadRejection.js';
export { detectUploadKind, ACCEPTED_UPLOAD_EXTENSIONS, type UploadKind } from './upload/detectUploadKind.js';
export { extractText, type Upload, type ExtractedText } from './upload/extractText.js';
