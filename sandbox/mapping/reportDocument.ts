/** A mapping report as the format-neutral document the server renders to markdown, PDF and DOCX. */
import type { DocumentModel, DocumentSection } from '../documentModel.js';
import type { EvidenceLocation, MappingReportInput } from './types.js';

interface ReportDocumentOptions {
  /** Shown on every page (sandbox keys). */
  watermark?: string;
}

const STATUS_LABEL = { covered: 'Covered', partial: 'Partial', missing: 'Missing' } as const;

/** The format-neutral document of a mapping report (title, coverage, control table, gaps, evidence). */
export function mappingReportToDocument(report: MappingReportInput, options: ReportDocumentOptions = {}): DocumentModel {
  const summary = report.summary ?? {
    controls: report.controls.length,
    covered: report.controls.filter((c) => c.status === 'covered').length,
    partial: report.controls.filter((c) => c.status === 'partial').length,
    missing: report.controls.filter((c) => c.status === 'missing').length,
  };
  const framework = `${report.framework.name}${report.framework.version ? ` (${report.framework.version})` : ''}`;
  const meta: Array<[string, string]> = [
    ['Framework', framework],
    ['Coverage', `${report.coverage}%`],
    ['Controls', `${summary.covered} covered, ${summary.partial} partial, ${summary.missing} missing of ${summary.controls}`],
  ];
  if (report.title) meta.push(['Document', report.title]);
  if (report.generatedAt) meta.push(['Generated', report.generatedAt]);
  if (report.jobId) meta.push(['Job', report.jobId]);

  const sections: DocumentSection[] = [
    {
      heading: 'Coverage summary',
      paragraphs: [
        `${report.title ?? 'The document'} evidences ${report.coverage}% of the ${summary.controls} controls of ${framework}: ` +
          `${summary.covered} covered, ${summary.partial} partially covered and ${summary.missing} missing. ` +
          'Covered controls count fully and partial controls half.',
      ],
    },
    {
      heading: 'Controls',
      paragraphs: [],
      table: [
        ['Control', 'Title', 'Status', 'Score', 'Evidence'],
        ...report.controls.map((c) => [c.id, c.title, STATUS_LABEL[c.status], c.score.toFixed(2), String(c.evidence.length)]),
      ],
    },
    {
      heading: 'Gaps and recommendations',
      paragraphs: report.gaps.length ? [] : ['No gaps: every control is covered.'],
      bullets: report.gaps.map((g) => `${g.controlId} ${g.title} (${g.status}): ${g.missing} Recommendation: ${g.recommendation}`),
    },
    {
      heading: 'Evidence',
      paragraphs: report.controls.some((c) => c.evidence.length) ? [] : ['No evidence was found in the document.'],
      bullets: report.controls.flatMap((c) => c.evidence.map((e) => `${c.id}: "${e.quote}" (${describeLocation(e.location)})`)),
    },
  ];
  return {
    title: `Evidence mapping: ${report.framework.name}`,
    ...(report.title ? { subtitle: report.title } : {}),
    ...(options.watermark !== undefined ? { watermark: options.watermark } : {}),
    meta,
    sections,
  };
}

function describeLocation(location: EvidenceLocation): string {
  return [location.source, `line ${location.line}`, location.section ? `section "${location.section}"` : undefined].filter(Boolean).join(', ');
}
