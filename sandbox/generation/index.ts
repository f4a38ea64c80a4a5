/** Generated document content for the sandbox: document types and the document model of a generation job. */
export { SANDBOX_WATERMARK } from './watermark.js';
export { documentTypes, generateDocumentModel } from './generate.js';
export type { GenerationInput } from './generate.js';
