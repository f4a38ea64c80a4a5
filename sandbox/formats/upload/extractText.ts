/** Plain text of an uploaded document, for evidence mapping. */
import { LIMITS } from '../../../api/schemas/common.js';
import { ACCEPTED_KINDS_HINT, detectUploadKind, kindLabel, type UploadKind } from './detectUploadKind.js';
import { extractDocxText } from './extractDocx.js';
import { extractPdfText } from './extractPdf.js';
import { decodePlainText } from './extractPlainText.js';
import { extractPptxText } from './extractPptx.js';
import { extractXlsxText } from './extractXlsx.js';
import { mainDocumentPart } from './opcRelationships.js';
import { DEFAULT_UPLOAD_LIMITS, UploadBudget, type UploadLimits } from './uploadBudget.js';
import { UploadRejection } from './uploadRejection.js';
import { XmlFormatError } from './xmlReader.js';
import { ZipPackage } from './zipArchive.js';

export interface Upload {
  data: Uint8Array;
  filename: string;
  contentType?: string;
}

export interface ExtractedText {
  text: string;
  kind: UploadKind;
}

type PackageKind = 'docx' | 'xlsx' | 'pptx';

/** Where each OOXML kind keeps its main part, by the folder the package relationship points into. */
const MAIN_PART_FOLDERS: Readonly<Record<PackageKind, string>> = { docx: 'word/', xlsx: 'xl/', pptx: 'ppt/' };
const DEFAULT_MAIN_PARTS: Readonly<Record<PackageKind, string>> = { docx: 'word/document.xml', xlsx: 'xl/workbook.xml', pptx: 'ppt/presentation.xml' };

const RESAVE_HINT = 'Open the file in its application, save it again, and upload the saved copy.';

/** The main part of an OOXML package of the expected kind, or a rejection saying what the package really is. */
function openOfficePackage(data: Uint8Array, filename: string, kind: PackageKind, budget: UploadBudget): { zip: ZipPackage; mainPart: string } {
  const zip = ZipPackage.open(data, kindLabel(kind), budget);
  const mainPart = mainDocumentPart(zip) ?? (zip.has(DEFAULT_MAIN_PARTS[kind]) ? DEFAULT_MAIN_PARTS[kind] : undefined);
  if (mainPart && mainPart.toLowerCase().startsWith(MAIN_PART_FOLDERS[kind]) && zip.has(mainPart)) return { zip, mainPart };
  const actual = (Object.keys(MAIN_PART_FOLDERS) as PackageKind[]).find((other) => mainPart?.toLowerCase().startsWith(MAIN_PART_FOLDERS[other]));
  if (actual && actual !== kind) {
    throw new UploadRejection('unsupported_file_type', `${filename} is named as a ${kindLabel(kind)} but is a ${kindLabel(actual)}.`, `Rename it with the extension .${actual} and upload it again.`);
  }
  if (!zip.has('[Content_Types].xml')) {
    throw new UploadRejection('unsupported_file_type', `${filename} is a ZIP archive, not a ${kindLabel(kind)}.`, `Upload the documents themselves, not an archive. ${ACCEPTED_KINDS_HINT}`);
  }
  throw new UploadRejection('unreadable_file', `${filename} is damaged: its main part is missing.`, RESAVE_HINT);
}

async function extractByKind(upload: Upload, kind: UploadKind, budget: UploadBudget): Promise<string> {
  switch (kind) {
    case 'text':
      return decodePlainText(upload.data, upload.filename);
    case 'pdf':
      return extractPdfText(upload.data, upload.filename, budget);
    case 'docx': {
      const { zip, mainPart } = openOfficePackage(upload.data, upload.filename, kind, budget);
      return extractDocxText(zip, mainPart);
    }
    case 'xlsx': {
      const { zip, mainPart } = openOfficePackage(upload.data, upload.filename, kind, budget);
      return extractXlsxText(zip, mainPart);
    }
    case 'pptx': {
      const { zip, mainPart } = openOfficePackage(upload.data, upload.filename, kind, budget);
      return extractPptxText(zip, mainPart);
    }
  }
}

/**
 * Plain text of an upload, in reading order; paragraphs separated by blank lines; XLSX: one line per
 * row, cells tab-separated, each sheet under "Sheet: <name>"; PPTX: each slide under "Slide N".
 * Invalid/corrupt file or non-UTF-8 text → UploadRejection('unreadable_file') with a clear message;
 * past `limits` (bytes inflated, characters extracted) → UploadRejection('upload_too_large') naming the limit.
 */
export async function extractText(upload: Upload, limits: UploadLimits = DEFAULT_UPLOAD_LIMITS): Promise<ExtractedText> {
  if (upload.data.length > LIMITS.uploadMaxBytes) {
    throw new UploadRejection(
      'upload_too_large',
      `${upload.filename} is ${(upload.data.length / (1024 * 1024)).toFixed(1)} MB; uploads are limited to ${LIMITS.uploadMaxBytes / (1024 * 1024)} MB.`,
      'Split the document, or send its text as JSON {framework, content} instead of a file.',
    );
  }
  const kind = detectUploadKind(upload.filename, upload.contentType, upload.data.subarray(0, 1024));
  if (upload.data.length === 0) {
    throw new UploadRejection('unreadable_file', `${upload.filename} is empty.`, 'Upload the file again; it may not have been attached.');
  }
  const budget = new UploadBudget(limits, upload.filename);
  let text: string;
  try {
    text = await extractByKind(upload, kind, budget);
  } catch (error) {
    if (error instanceof XmlFormatError) {
      throw new UploadRejection('unreadable_file', `${upload.filename} is damaged: ${error.message}.`, RESAVE_HINT);
    }
    throw error;
  }
  text = text.replace(/^\ufeff/, '').trim();
  // PDF text is counted page by page as pdf.js streams it; the other kinds once, here.
  if (kind !== 'pdf') budget.addCharacters(text.length);
  if (!text) {
    const hint = kind === 'pdf' ? 'The PDF has no text layer (a scan?): run it through OCR, or upload the source document.' : 'Check that you uploaded the right file.';
    throw new UploadRejection('unreadable_file', `No text could be extracted from ${upload.filename}.`, hint);
  }
  return { text, kind };
}
