/**
 * Document formats of the sandbox: rendering generated documents and mapping reports
 * (markdown, PDF, DOCX) and extracting plain text from uploaded files for mapping.
 */
export { CONTENT_TYPES } from './contentTypes.js';
export { renderMarkdown } from './markdown.js';
export { renderPdf } from './pdf/renderPdf.js';
export { renderDocx } from './docx/renderDocx.js';
export { UploadRejection } from './upload/uploadRejection.js';
export { detectUploadKind, ACCEPTED_UPLOAD_EXTENSIONS } from './upload/detectUploadKind.js';
export { extractText } from './upload/extractText.js';
