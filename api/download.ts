/** Reading a download: json parsed, md as text, pdf and docx as bytes, with content type and filename. */
import type { Download } from './clientTypes.js';
import { ComplianceApiError } from './errors.js';
import { decodeText, readJsonBody, type ResponseContext } from './http.js';
import type { DownloadFormat } from './schemas/common.js';
import type { TransportResponse } from './transport.js';

export const FORMAT_CONTENT_TYPES: Record<DownloadFormat, string> = {
  json: 'application/json',
  md: 'text/markdown',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/**
 * The filename of a Content-Disposition header (`filename*=UTF-8''…` preferred), reduced to a
 * plain base name so it is safe to write to disk.
 */
export function filenameFromContentDisposition(header: string | undefined): string | undefined {
  if (!header) return undefined;
  let name: string | undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      name = decodeURIComponent(extended[2]!.trim().replace(/^"|"$/g, ''));
    } catch {
      name = undefined;
    }
  }
  if (name === undefined) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
    name = plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]?.trim()) : undefined;
  }
  const base = name?.split(/[\\/]/).pop()?.split('').filter((char) => char.charCodeAt(0) >= 0x20 && char.charCodeAt(0) !== 0x7f).join('').trim();
  return base && base !== '.' && base !== '..' ? base : undefined;
}

export function readDownload(
  response: TransportResponse,
  request: { jobId: string; format: DownloadFormat },
  context: ResponseContext,
): Download {
  const contentType = response.headers['content-type'] ?? FORMAT_CONTENT_TYPES[request.format];
  const filename = filenameFromContentDisposition(response.headers['content-disposition']) ?? `${request.jobId}.${request.format}`;
  if (request.format === 'json') {
    const data = readJsonBody(response, context);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new ComplianceApiError({
        code: 'unexpected_response',
        status: response.status,
        operationId: context.operationId,
        message: `${context.operationId}: the json download is not an object`,
        hint: 'Download the md format instead, or report it with the request id.',
        requestId: response.headers['x-request-id'],
      });
    }
    return { kind: 'json', data: data as Record<string, unknown>, contentType, filename };
  }
  if (request.format === 'md') return { kind: 'text', text: decodeText(response.body), contentType, filename };
  return { kind: 'binary', data: response.body, contentType, filename };
}
