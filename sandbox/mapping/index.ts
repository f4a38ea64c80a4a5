/**
 * The sandbox's evidence mapping: a document (or combined policy set) against a verified
 * framework's control set, scored with weights fixed by the control set so the result depends
 * only on the sentences that evidence each control. Deterministic.
 */
export { mapText, COVERED_THRESHOLD, PARTIAL_THRESHOLD, MAX_EVIDENCE_PER_CONTROL } from './mapText.js';
export { mappingTextOfUpload } from './uploadText.js';
export { mappingReportToDocument, type ReportDocumentOptions } from './reportDocument.js';
export type * from './types.js';
