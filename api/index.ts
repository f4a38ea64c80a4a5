// The pure API core: no process, file system or timers (the n8n node bundles this entry).
export * from './errors.js';
export * from './operations.js';
export * from './transport.js';
export * from './baseUrl.js';
export * from './validation.js';
export * from './schemas/common.js';
export * as requestSchemas from './schemas/requests.js';
export * as responseSchemas from './schemas/responses.js';
export type { UploadFile } from './schemas/requests.js';
export type { BinaryDownload, TextDownload } from './schemas/responses.js';
export type * from './clientTypes.js';
