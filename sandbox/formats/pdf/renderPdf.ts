import type { DocumentModel } from '../../documentModel.js';
import { documentDate } from '../documentDate.js';
import { serialiseContentStream } from './contentStream.js';
import { layoutPages, PAGE_HEIGHT, PAGE_WIDTH } from './pageLayout.js';
import { writePdfFile } from './pdfFile.js';

const PDF_PRODUCER = 'Compliance sandbox';

/** The model as an A4 PDF 1.7 file (application/pdf); the same model always gives the same bytes. */
export function renderPdf(model: DocumentModel): Uint8Array {
  return writePdfFile({
    title: model.title,
    producer: PDF_PRODUCER,
    creationDate: documentDate(model),
    pageWidth: PAGE_WIDTH,
    pageHeight: PAGE_HEIGHT,
    pageContents: layoutPages(model).map(serialiseContentStream),
  });
}
