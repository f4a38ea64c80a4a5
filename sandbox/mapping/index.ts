/**
 * The sandbox's evidence mapping: a document (or combined policy set) against a verified
 * framework's control set, scored with weights fixed by the control set so the result depends
 * only on the sentences that evidence each control. Deterministic.
 */
export { mapText } from './mapText.js';
export { mappingTextOfUpload } from './uploadText.js';
export { mappingReportToDocument } from './reportDocument.js';
export type * from './types.js';
