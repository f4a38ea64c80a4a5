import { countPdfInflation } from './pdfStreams.js';
import { DEFAULT_UPLOAD_LIMITS, UploadBudget } from './uploadBudget.js';
import { UploadRejection } from './uploadRejection.js';

const RESAVE_HINT = 'Open the PDF in a viewer and print or export it to a new PDF, or upload the source document (.docx) instead.';

interface TextChunk {
  items: Array<{ str?: string; hasEOL?: boolean }>;
}

/**
 * Text of every page in reading order, pages separated by blank lines. The file's compressed streams
 * are counted against the inflated-bytes budget first; then pdf.js (through unpdf, loaded on first
 * use only, so starting the CLI does not pay for it) streams each page's text, counted against the
 * character budget as it arrives, so a page of millions of text operators is stopped part-way.
 */
export async function extractPdfText(data: Uint8Array, filename: string, budget = new UploadBudget(DEFAULT_UPLOAD_LIMITS, filename)): Promise<string> {
  countPdfInflation(data, budget);
  const { getDocumentProxy } = await import('unpdf');
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
  const pages: string[] = [];
  try {
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const reader = (page.streamTextContent() as ReadableStream<TextChunk>).getReader();
      let text = '';
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        let piece = '';
        for (const item of chunk.value.items) if (item.str != null) piece += item.str + (item.hasEOL ? '\n' : '');
        budget.addCharacters(piece.length);
        text += piece;
      }
      page.cleanup();
      pages.push(text.replace(/[ \t]+\n/g, '\n').trim());
    }
  } catch (error) {
    // Answer at once: pdf.js may still be busy with the page, and waiting for it would wait out the
    // very work the limit stops (the extraction pool ends a worker after a limit is crossed).
    void document.loadingTask.destroy().catch(() => undefined);
    if (error instanceof UploadRejection) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new UploadRejection('unreadable_file', `The text of ${filename} cannot be read (${reason}).`, RESAVE_HINT);
  }
  await document.loadingTask.destroy();
  return pages.filter(Boolean).join('\n\n');
}
