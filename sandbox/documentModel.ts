/**
 * The format-neutral document the sandbox produces for generation results and mapping reports.
 * Rendered to markdown, PDF and DOCX by sandbox/formats; JSON downloads carry it as data.
 */
export interface DocumentSection {
  heading: string;
  /** Plain text paragraphs. */
  paragraphs: string[];
  /** Optional bullet list after the paragraphs. */
  bullets?: string[];
  /** Optional table after the bullets: first row is the header. */
  table?: string[][];
}

export interface DocumentModel {
  title: string;
  subtitle?: string;
  /** Shown on every page (PDF), in the header (DOCX) and at the top (markdown) when set. */
  watermark?: string;
  /** Key/value lines under the title, e.g. Framework, Organisation, Generated. */
  meta: Array<[string, string]>;
  sections: DocumentSection[];
}
