/**
 * The tools around jobs' results: mapDocument and generateDocument wait for their job and answer
 * with its result; getMappingReport reads a mapping report again, part by part (free), and
 * downloadDocument gives any format of a job's result (text in parts, files as a resource link).
 * mapDocument maps a library document by its id: this server reads the stored text itself (free),
 * so a long policy never passes through the assistant's context, and maps it as `compliance map`
 * maps the file (the text under a header naming the file, so evidence cites it).
 */
import type { ContentBlock, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Download, MappingReportModel } from '../../api/clientTypes.js';
import { ComplianceApiError, ComplianceValidationError } from '../../api/errors.js';
import { normalizeMappingReport } from '../../api/normalize/mappingReport.js';
import { FORMATS, sourceFileHeader } from '../../api/schemas/common.js';
import { jobIdParam, libraryIdParam } from '../../api/schemas/requests.js';
import { answer, fitsWhole, type Part } from './answer.js';
import type { McpContext } from './context.js';
import { offsetOf, offsetProperty, operationTool, spend, type ServiceLists, type ToolDefinition } from './tools.js';

type Format = (typeof FORMATS)[number];

function documentUri(jobId: string, format: string): string {
  return `document://${jobId}.${format}`;
}

function invalid(field: string, message: string, hint: string): ComplianceValidationError {
  return new ComplianceValidationError({ code: 'invalid_input', field, message: `${field}: ${message}`, hint });
}

/** `args[name]` when it is one of `allowed` (the first when left out). */
function choice<T extends string>(args: Record<string, unknown>, name: string, allowed: readonly T[]): T {
  const value = args[name] ?? allowed[0];
  if (!(allowed as readonly unknown[]).includes(value)) throw invalid(name, `must be one of ${allowed.join(', ')}`, `Leave ${name} out for ${allowed[0]}.`);
  return value as T;
}

/** A text answer in parts: `text` from `offset`, the next part from downloadDocument. */
function textPart(jobId: string, format: Format, offset: number): Part {
  return { key: 'text', noun: 'characters', offset, next: (end) => ({ tool: 'downloadDocument', arguments: { jobId, format, offset: end } }) };
}

function downloadTool(): ToolDefinition {
  const definition = operationTool('downloadDocument', { add: { offset: offsetProperty('text (md, or json too long for one answer)') } });
  definition.tool.description = 'Get the result of a completed generation or mapping job: json (parsed, or its JSON text in parts when long), md (text, in parts), pdf or docx (a document:// resource link to read).';
  definition.run = async (args, context, { signal }) => {
    const format = choice(args, 'format', ['json', 'md', 'pdf', 'docx'] as const);
    const offset = offsetOf(args);
    const jobId = String(args.jobId);
    const download: Download = await context.client.downloadDocument({ jobId: args.jobId as string, format }, { signal });
    const uri = documentUri(jobId, format);
    const result: Record<string, unknown> = { jobId, format, filename: download.filename, contentType: download.contentType, uri };
    const links: ContentBlock[] = [{ type: 'resource_link', uri, name: download.filename, mimeType: download.contentType }];
    if (download.kind === 'binary') return answer(context, { charged: false, result, links });
    if (download.kind === 'json' && offset === 0 && fitsWhole(download.data)) return answer(context, { charged: false, result: { ...result, data: download.data }, links });
    const text = download.kind === 'json' ? JSON.stringify(download.data) : download.text;
    return answer(context, { charged: false, result: { ...result, text }, part: textPart(jobId, format, offset), links });
  };
  return definition;
}

const DETAILS = ['summary', 'full'] as const;
const LISTS = ['gaps', 'controls'] as const;

/**
 * The one output schema this server gives (tools/list stays small, issue 36): a mapping report's
 * figures, which a program reading structuredContent acts on (gate on coverage, list the gaps).
 * Either the result or, for a failed call, the error.
 */
const REPORT_OUTPUT: NonNullable<Tool['outputSchema']> = {
  type: 'object',
  properties: {
    result: {
      type: 'object',
      properties: {
        jobId: { type: 'string' },
        coverage: { type: 'number', description: 'percent of the framework\'s controls covered, 0..100' },
        summary: { type: ['object', 'null'], description: 'controls, covered, partial, missing' },
        gaps: { type: 'array' },
        controls: { type: 'array' },
      },
      required: ['jobId', 'coverage'],
    },
    page: { type: 'object' },
    next: { type: 'object' },
    error: { type: 'object' },
  },
  anyOf: [{ required: ['result'] }, { required: ['error'] }],
};

const detailProperty = { type: 'string', enum: DETAILS, description: 'summary (the default): each gap\'s control, title and status; full: also what is missing and the recommendation.' };

/** A report's figures and one of its lists (gaps, or each control with its evidence) from `offset`. */
function reportAnswer(context: McpContext, jobId: string, report: MappingReportModel, args: Record<string, unknown>, charged: boolean): ReturnType<typeof answer> {
  const list = choice(args, 'list', LISTS);
  const detail = choice(args, 'detail', DETAILS);
  const items = list === 'controls'
    ? report.controls.map((control) => ({ id: control.id, title: control.title, status: control.status, evidence: control.evidence.map((quote) => ({ quote: quote.quote, location: quote.location })) }))
    : report.gaps.map((gap) => (detail === 'full'
      ? { controlId: gap.controlId, title: gap.title, status: gap.status, missing: gap.missing, recommendation: gap.recommendation }
      : { controlId: gap.controlId, title: gap.title, status: gap.status }));
  const reportUri = `report://${jobId}`;
  const result = { jobId, reportUri, framework: report.framework, coverage: report.coverage, summary: report.summary ?? null, [list]: items };
  const shape = { ...(list === 'gaps' ? {} : { list }), ...(detail === 'summary' ? {} : { detail }) };
  const part: Part = { key: list, noun: list, offset: offsetOf(args), next: (end) => ({ tool: 'getMappingReport', arguments: { jobId, ...shape, offset: end } }) };
  return answer(context, { charged, result, part, links: [{ type: 'resource_link', uri: reportUri, name: `report-${jobId}`, mimeType: 'application/json' }] });
}

/** The text a library document is mapped from: its stored text, under the header `compliance map` gives its file. */
async function libraryText(context: McpContext, documentId: unknown, signal: AbortSignal | undefined): Promise<{ content: string; title: string }> {
  if (!libraryIdParam.safeParse(documentId).success) throw invalid('documentId', 'must be a library document id as listLibrary or searchLibrary give it', 'For example "doc_70eaed12".');
  const doc = await context.client.getLibraryDocument({ id: documentId as string, include: 'content' }, { signal });
  if (!doc.content) throw invalid('documentId', `the service returned no stored text for ${documentId as string}`, 'Give its text as content instead.');
  return { content: doc.filename ? `${sourceFileHeader(doc.filename)}\n\n${doc.content}` : doc.content, title: doc.title };
}

function mapTool(lists: ServiceLists): ToolDefinition {
  const definition = operationTool('mapDocument', {
    drop: ['file'],
    required: ['framework'],
    enums: { framework: lists.verifiedFrameworks },
    describe: { content: 'The policy text to map, e.g. a policy the user pasted. For a library document give documentId instead: never its text.' },
    add: {
      documentId: { type: 'string', description: 'A library document to map, e.g. "doc_70eaed12" (from listLibrary or searchLibrary): this server reads its whole stored text itself. Give documentId or content.' },
      detail: detailProperty,
    },
  });
  definition.tool.outputSchema = REPORT_OUTPUT;
  definition.tool.description = 'Map a policy against a verified framework\'s controls: a library document (documentId) or text (content). Waits for the report and returns its coverage and gap list; getMappingReport gives the rest of a long list and each control\'s evidence, free.';
  definition.run = async (args, context, call) => {
    const { detail: _detail, documentId, content, title, framework } = args;
    choice(args, 'detail', DETAILS);
    if ((documentId === undefined) === (content === undefined)) throw invalid(documentId === undefined ? 'content' : 'documentId', 'give either documentId (a library document) or content (text), one of them', 'To map a library document, give its documentId only.');
    const source = documentId !== undefined ? await libraryText(context, documentId, call.signal) : { content: content as string, title: undefined };
    const input = { framework, content: source.content, ...(title ?? source.title ? { title: title ?? source.title } : {}) };
    const { job, report } = await spend(context, 'mapDocument', ['mapDocument'], (admitted) => context.client.mapAndDownload(input as never, { ...call, onAccepted: admitted }));
    context.reports.set(job.jobId, { title: `${report.framework.name} mapping${input.title ? `: ${input.title as string}` : ''}` });
    return reportAnswer(context, job.jobId, report, { detail: args.detail }, true);
  };
  return definition;
}

function mappingReportTool(): ToolDefinition {
  const title = 'Mapping report';
  return {
    tool: {
      name: 'getMappingReport', title,
      description: 'Read the report of a completed mapping job (mapDocument\'s jobId) part by part, without mapping again: coverage, then its gaps or every control with its status and evidence quotes. Free.',
      inputSchema: {
        type: 'object',
        properties: {
          jobId: { type: 'string', description: 'The mapping job\'s id, e.g. "3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a", from mapDocument.' },
          list: { type: 'string', enum: LISTS, description: 'gaps (the default), or controls: every control with its status and evidence quotes.' },
          detail: detailProperty,
          offset: offsetProperty('list'),
        },
        required: ['jobId'],
      },
      outputSchema: REPORT_OUTPUT,
      annotations: { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    group: 'generate',
    charged: [],
    async run(args, context, { signal }) {
      if (!jobIdParam.safeParse(args.jobId).success) throw invalid('jobId', 'must be a job id (a UUID) as mapDocument gives it', 'Use the jobId of a mapDocument answer.');
      const jobId = args.jobId as string;
      const download = await context.client.downloadDocument({ jobId, format: 'json' }, { signal });
      if (download.kind !== 'json') throw new ComplianceApiError({ code: 'unexpected_response', operationId: 'downloadDocument', message: `job ${jobId}: its result is no JSON mapping report`, hint: 'Use the jobId of a mapDocument answer.' });
      return reportAnswer(context, jobId, normalizeMappingReport(download.data, { operationId: 'downloadDocument', input: { jobId } }), args, false);
    },
  };
}

function generateTool(lists: ServiceLists): ToolDefinition {
  const definition = operationTool('generateDocument', {
    // organisation{name, sector, country} says who the document is for; the flat company, sector and
    // jurisdiction mean the same (accepted, not advertised), as do the aliases of framework and type.
    drop: ['standard', 'name', 'documentType', 'company', 'sector', 'jurisdiction'],
    required: ['framework'],
    enums: { type: lists.documentTypes },
  });
  definition.tool.description = 'Generate a policy or framework-reference document for a framework, optionally personalised for an organisation. Waits for it and returns its Markdown text, a long one in parts (downloadDocument gives the rest, and the json, pdf and docx formats).';
  definition.run = async (args, context, call) => {
    const { job, download } = await spend(context, 'generateDocument', ['generateDocument'], (admitted) => context.client.generateAndDownload(args as never, { format: 'md', ...call, onAccepted: admitted }));
    const text = download.kind === 'text' ? download.text : JSON.stringify(download.kind === 'json' ? download.data : null);
    const uri = documentUri(job.jobId, 'md');
    return answer(context, {
      charged: true,
      result: { jobId: job.jobId, uri, filename: download.filename, text },
      part: textPart(job.jobId, 'md', 0),
      links: [{ type: 'resource_link', uri, name: download.filename, mimeType: 'text/markdown' }],
    });
  };
  return definition;
}

export const DOCUMENT_TOOLS = { downloadDocument: downloadTool, mapDocument: mapTool, generateDocument: generateTool } as const;
export { mappingReportTool };
