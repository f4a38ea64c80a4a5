/** Generated document content for the sandbox: document types and the document model of a generation job. */
export { SANDBOX_WATERMARK } from './watermark.js';
export { documentTypes, generateDocumentModel, relevantControls, FRAMEWORK_REFERENCE } from './generate.js';
export type { DocumentTypeInfo, GenerationInput } from './generate.js';
