/** Which kind of document an upload is: by file extension, with content type and magic bytes as cross-checks. */
import { UPLOAD_KINDS, type UploadFileKind } from '../../../api/schemas/common.js';
import { UploadRejection } from './uploadRejection.js';

export type UploadKind = UploadFileKind;

/** Extension (without the dot) → kind, from the API module's one list of accepted kinds. */
export const ACCEPTED_UPLOAD_EXTENSIONS: Readonly<Record<string, UploadKind>> = Object.fromEntries(
  UPLOAD_KINDS.map((entry) => [entry.extension.slice(1), entry.kind]),
);

const KIND_LABELS: Readonly<Record<UploadKind, string>> = {
  docx: 'Word document (.docx)',
  pdf: 'PDF document (.pdf)',
  xlsx: 'Excel workbook (.xlsx)',
  pptx: 'PowerPoint presentation (.pptx)',
  text: 'text file',
};

export function kindLabel(kind: UploadKind): string {
  return KIND_LABELS[kind];
}

const CONTENT_TYPE_KINDS: Readonly<Record<string, UploadKind>> = {
  ...Object.fromEntries(UPLOAD_KINDS.map((entry) => [entry.contentType.split(';')[0]!, entry.kind])),
  // An older name for markdown some clients still send.
  'text/x-markdown': 'text',
};

/** Formats people commonly try, and what to save them as instead. */
const RESAVE_AS: Readonly<Record<string, string>> = {
  doc: '.docx', dot: '.docx', docm: '.docx', dotx: '.docx', rtf: '.docx', odt: '.docx', pages: '.docx', wpd: '.docx',
  xls: '.xlsx', xlsm: '.xlsx', xlsb: '.xlsx', xlt: '.xlsx', ods: '.xlsx', numbers: '.xlsx',
  ppt: '.pptx', pptm: '.pptx', pps: '.pptx', ppsx: '.pptx', odp: '.pptx', key: '.pptx',
  htm: '.pdf', html: '.pdf',
};
const LEGACY_CONTENT_TYPES: Readonly<Record<string, string>> = {
  'application/msword': '.docx',
  'application/rtf': '.docx',
  'application/vnd.ms-excel': '.xlsx',
  'application/vnd.ms-powerpoint': '.pptx',
};

/** "Word (.docx), …, and text (.txt, .md, .markdown, .csv)": each kind under its first entry's label. */
function acceptedKindsText(): string {
  const groups = new Map<UploadKind, { label: string; extensions: string[] }>();
  for (const entry of UPLOAD_KINDS) {
    const group = groups.get(entry.kind) ?? { label: entry.label, extensions: [] };
    group.extensions.push(entry.extension);
    groups.set(entry.kind, group);
  }
  const parts = [...groups.values()].map((group) => `${group.label} (${group.extensions.join(', ')})`);
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

export const ACCEPTED_KINDS_HINT =
  `Accepted: ${acceptedKindsText()}. ` +
  'Re-save legacy .doc, .xls and .ppt files as .docx, .xlsx or .pptx (File > Save As) and upload again.';

type Sniffed = 'zip' | 'pdf' | 'ole' | 'executable' | 'image' | 'archive' | 'rtf' | 'unknown';

const SNIFFED_LABELS: Readonly<Record<Exclude<Sniffed, 'unknown'>, string>> = {
  zip: 'a ZIP archive',
  pdf: 'a PDF document',
  ole: 'a legacy binary Office file (.doc/.xls/.ppt) or a password-protected Office document',
  executable: 'a program (executable)',
  image: 'an image',
  archive: 'a compressed archive',
  rtf: 'an RTF document',
};

function startsWith(head: Uint8Array, signature: number[], at = 0): boolean {
  return signature.every((byte, index) => head[at + index] === byte);
}

/** What the first bytes say the file is. */
function sniffContent(head: Uint8Array): Sniffed {
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  // PDF allows up to 1024 bytes of junk before the header.
  const prefix = String.fromCharCode(...head.subarray(0, 1024));
  if (prefix.includes('%PDF-')) return 'pdf';
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (startsWith(head, [0x4d, 0x5a]) || startsWith(head, [0x7f, 0x45, 0x4c, 0x46]) || startsWith(head, [0xcf, 0xfa, 0xed, 0xfe]) || startsWith(head, [0xca, 0xfe, 0xba, 0xbe])) return 'executable';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47]) || startsWith(head, [0xff, 0xd8, 0xff]) || prefix.startsWith('GIF8') || (prefix.startsWith('RIFF') && prefix.slice(8, 12) === 'WEBP')) return 'image';
  if (startsWith(head, [0x1f, 0x8b]) || prefix.startsWith('Rar!') || startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return 'archive';
  if (prefix.startsWith('{\\rtf')) return 'rtf';
  return 'unknown';
}

function extensionOf(filename: string): string | undefined {
  const base = filename.split(/[\\/]/).at(-1) ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 && dot < base.length - 1 ? base.slice(dot + 1).toLowerCase() : undefined;
}

function unsupported(message: string, resaveAs?: string): UploadRejection {
  const hint = resaveAs ? `Open it in its application and save it as ${resaveAs}, then upload that file. ${ACCEPTED_KINDS_HINT}` : ACCEPTED_KINDS_HINT;
  return new UploadRejection('unsupported_file_type', message, hint);
}

/** Kind from the name, else from the content type, else (PDF only) from the content. */
function declaredKind(filename: string, contentType: string | undefined, head: Uint8Array | undefined): UploadKind {
  const extension = extensionOf(filename);
  if (extension) {
    const kind = ACCEPTED_UPLOAD_EXTENSIONS[extension];
    if (kind) return kind;
    const resaveAs = RESAVE_AS[extension];
    throw unsupported(`.${extension} files are not supported for mapping (${filename}).`, resaveAs);
  }
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType) {
    const kind = CONTENT_TYPE_KINDS[mediaType];
    if (kind) return kind;
    if (LEGACY_CONTENT_TYPES[mediaType]) throw unsupported(`${mediaType} files are not supported for mapping.`, LEGACY_CONTENT_TYPES[mediaType]);
  }
  if (head && sniffContent(head) === 'pdf') return 'pdf';
  throw unsupported(`The type of ${filename || 'the upload'} cannot be told: it has no file extension${mediaType ? ` and its content type ${mediaType} is not one of the accepted kinds` : ''}.`, undefined);
}

/**
 * Kind from extension (and content type / magic bytes as a cross-check). Accepted: .docx .pdf .xlsx .pptx .txt .md .markdown .csv.
 * Legacy .doc/.xls/.ppt and anything else → UploadRejection('unsupported_file_type') whose hint names the accepted kinds and suggests re-saving as .docx/.xlsx/.pptx.
 * Content that is evidently something else than the name says → 'unsupported_file_type' naming what it is.
 */
export function detectUploadKind(filename: string, contentType?: string, head?: Uint8Array): UploadKind {
  const kind = declaredKind(filename, contentType, head);
  if (!head || head.length === 0) return kind;
  const sniffed = sniffContent(head);
  const expected: Sniffed | undefined = kind === 'pdf' ? 'pdf' : kind === 'text' ? undefined : 'zip';
  if (sniffed === 'unknown' || sniffed === expected) return kind;
  if (kind === 'text' || expected !== undefined) {
    const resaveAs = sniffed === 'ole' ? { docx: '.docx', xlsx: '.xlsx', pptx: '.pptx' }[kind as string] : undefined;
    const passwordNote = sniffed === 'ole' && resaveAs ? ' If it is password-protected, remove the password first.' : '';
    throw unsupported(`${filename} is named as a ${kindLabel(kind)} but contains ${SNIFFED_LABELS[sniffed]}.${passwordNote}`, resaveAs);
  }
  return kind;
}
