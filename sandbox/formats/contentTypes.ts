/** Media types of the download formats (GET /documents/{jobId}?format=...). */
export const CONTENT_TYPES = {
  json: 'application/json; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
} as const satisfies { json: string; md: string; pdf: string; docx: string };
