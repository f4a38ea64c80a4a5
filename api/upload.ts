/**
 * Mapping uploads: the accepted file kinds (UPLOAD_KINDS in schemas/common.ts, shared with the sandbox), the
 * checks made before anything is sent, and a hand-built multipart/form-data body (the core has no
 * FormData dependency so the n8n transport can send the bytes as they are).
 */
import { ComplianceValidationError } from './errors.js';
import type { UploadFile } from './schemas/requests.js';
import { LIMITS, UPLOAD_KINDS, type UploadKind } from './schemas/common.js';


export const UPLOAD_EXTENSIONS: readonly string[] = UPLOAD_KINDS.map((kind) => kind.extension);

/** Legacy binary Office formats are refused with the OOXML kind to re-save as. */
const LEGACY_OFFICE: Record<string, string> = { '.doc': '.docx', '.xls': '.xlsx', '.ppt': '.pptx' };

function extensionOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? filename;
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

export function uploadKindFor(filename: string): UploadKind | undefined {
  const extension = extensionOf(filename);
  return UPLOAD_KINDS.find((kind) => kind.extension === extension);
}

function sizeOf(data: UploadFile['data']): number {
  return data instanceof Uint8Array || data instanceof ArrayBuffer ? data.byteLength : data.size;
}

/**
 * Refuses a file the service would refuse: wrong kind (`unsupported_file_type`) or over 10 MB
 * (`upload_too_large`). Part of validateInput, so a surface pricing a call first refuses the file
 * before anything is sent.
 */
export function checkUpload(file: UploadFile, operationId: string): void {
  if (!uploadKindFor(file.filename)) {
    const extension = extensionOf(file.filename);
    const resave = LEGACY_OFFICE[extension];
    throw new ComplianceValidationError({
      code: 'unsupported_file_type',
      field: 'file',
      operationId,
      message: `${operationId}: file "${file.filename}" is of a kind the service does not accept (${extension || 'no extension'}); accepted: ${UPLOAD_EXTENSIONS.join(' ')}`,
      hint: resave
        ? `Re-save the file as ${resave} (the legacy ${extension} format is not accepted).`
        : `Convert the file to one of ${UPLOAD_EXTENSIONS.join(', ')}, or pass its text as content.`,
    });
  }
  const size = sizeOf(file.data);
  if (size > LIMITS.uploadMaxBytes) {
    throw new ComplianceValidationError({
      code: 'upload_too_large',
      field: 'file',
      operationId,
      message: `${operationId}: file "${file.filename}" has ${size.toLocaleString('en-US')} bytes; the upload limit is ${LIMITS.uploadMaxBytes.toLocaleString('en-US')} bytes (10 MB)`,
      hint: 'Split the document, remove embedded images, or send its text as content.',
    });
  }
}

async function bytesOf(data: UploadFile['data']): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(await data.arrayBuffer());
}

/** Quotes a header parameter the way browsers do: `"` and line breaks percent-encoded. */
function quoteParameter(value: string): string {
  return `"${value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

interface MultipartBody {
  body: Uint8Array;
  contentType: string;
}

/**
 * Builds `multipart/form-data` with text `fields` first and the file part `file` last.
 * `random` picks the boundary (injected, so tests are deterministic).
 */
export async function buildMultipart(
  fields: Record<string, string | undefined>,
  file: UploadFile,
  random: () => number,
): Promise<MultipartBody> {
  // The file passed checkUpload in validateInput, so its kind is one the service accepts.
  const kind = uploadKindFor(file.filename)!;
  const data = await bytesOf(file.data);
  const encoder = new TextEncoder();
  const filename = file.filename.split(/[\\/]/).pop() ?? file.filename;
  let boundary: string;
  do {
    boundary = `----ComplianceBoundary${Array.from({ length: 24 }, () => Math.floor(random() * 36).toString(36)).join('')}`;
  } while (contains(data, encoder.encode(boundary)));
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    head += `--${boundary}\r\nContent-Disposition: form-data; name=${quoteParameter(name)}\r\n\r\n${value}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=${quoteParameter(filename)}\r\n` +
    `Content-Type: ${file.contentType ?? kind.contentType}\r\n\r\n`;
  const headBytes = encoder.encode(head);
  const tailBytes = encoder.encode(`\r\n--${boundary}--\r\n`);
  const body = new Uint8Array(headBytes.length + data.length + tailBytes.length);
  body.set(headBytes, 0);
  body.set(data, headBytes.length);
  body.set(tailBytes, headBytes.length + data.length);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
