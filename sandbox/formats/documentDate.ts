import type { DocumentModel } from '../documentModel.js';

const DATE_KEY = /date|generated|created|issued|updated/i;
const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?/;

/**
 * The date a document carries in its meta lines (e.g. "Generated: 2025-03-01T10:00:00Z"), used as the
 * creation date inside PDF and DOCX files so the same model always gives the same bytes.
 * Dates without a zone are read as UTC. Undefined when the model has no such line.
 */
export function documentDate(model: DocumentModel): Date | undefined {
  for (const [key, value] of model.meta) {
    if (!DATE_KEY.test(key)) continue;
    const match = ISO_DATE.exec(value.trim());
    if (!match) continue;
    const [, day, time, zone] = match;
    const date = new Date(`${day}T${time ?? '00:00:00'}${zone ?? 'Z'}`);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return undefined;
}
