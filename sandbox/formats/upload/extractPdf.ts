import { UploadRejection } from './uploadRejection.js';

const RESAVE_HINT = 'Open the PDF in a viewer and print or export it to a new PDF, or upload the source document (.docx) instead.';

/**
 * Text of every page in reading order, pages separated by blank lines. pdf.js (through unpdf) is
 * loaded on first use only, so starting the CLI does not pay for it.
 */
export async function extractPdfText(data: Uint8Array, filename: string): Promise<string> {
  const { getDocumentProxy, extractText } = await import('unpdf');
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes ownership of the buffer it is given: pass a copy.
    document = await getDocumentProxy(data.slice(), { verbosity: 0 });
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException') {
      throw new UploadRejection('unreadable_file', `${filename} is password-protected.`, 'Remove the password (or upload an unprotected copy) and try again.');
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new UploadRejection('unreadable_file', `${filename} is not a readable PDF (${reason}).`, RESAVE_HINT);
  }
  try {
    const { text } = await extractText(document, { mergePages: false });
    return text
      .map((page) => page.replace(/[ \t]+\n/g, '\n').trim())
      .filter(Boolean)
      .join('\n\n');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UploadRejection('unreadable_file', `The text of ${filename} cannot be read (${reason}).`, RESAVE_HINT);
  } finally {
    await document.loadingTask.destroy();
  }
}
