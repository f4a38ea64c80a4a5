import { UploadRejection } from './uploadRejection.js';

/**
 * UTF-8 text (a byte order mark is dropped); UTF-16 is accepted when it carries its byte order mark,
 * as Windows editors write it. Anything else is refused rather than guessed: a wrong guess would
 * silently corrupt the evidence quotes of a mapping report.
 */
export function decodePlainText(data: Uint8Array, filename: string): string {
  const encoding = data[0] === 0xff && data[1] === 0xfe ? 'utf-16le' : data[0] === 0xfe && data[1] === 0xff ? 'utf-16be' : 'utf-8';
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(data);
  } catch {
    throw new UploadRejection(
      'unreadable_file',
      `${filename} is not valid UTF-8 text.`,
      'Save the file with UTF-8 encoding (in most editors: Save As, Encoding: UTF-8) and upload it again.',
    );
  }
  if (text.includes('\u0000')) {
    throw new UploadRejection('unreadable_file', `${filename} contains binary data, not text.`, 'Upload a text file, or the document in its own format (.docx, .pdf, .xlsx, .pptx).');
  }
  return text.replace(/\r\n?/g, '\n');
}
