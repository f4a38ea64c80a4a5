/**
 * Review → Map Policy Set: the input items (a set of policy documents) mapped against a verified
 * framework by review/'s runMapping, and judged by its gate (evaluateGate), as the CLI and the
 * review action do. One item: the verdict (passed, coverage, threshold, reasons) with the gaps,
 * or one item per gap, each with the verdict beside it. Report files (HTML, SARIF, JUnit, …) come
 * from review/'s one publisher, as binary fields of the verdict item.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { traceReports } from '../../../../../review/evidenceTrace.js';
import { evaluateGate } from '../../../../../review/gate.js';
import { runMapping } from '../../../../../review/mapping.js';
import { buildReportFiles, parseReportFormats } from '../../../../../review/publish.js';
import { buildReviewReport } from '../../../../../review/reportDocument.js';
import { frameworkLocator, locatorValue } from '../../helpers/locators.js';
import { asData } from '../../helpers/utils.js';
import { documentInputProperties, documentsOf } from './documentInput.js';

const properties: INodeProperties[] = [
  { ...frameworkLocator({ description: 'The verified framework to map the set against' }), hint: 'Only verified frameworks can be mapped against' },
  ...documentInputProperties,
  {
    displayName: 'Mapping',
    name: 'mappingMode',
    type: 'options',
    options: [
      { name: 'Combined', value: 'combined', description: 'The documents as one policy set: one mapping job, one price' },
      { name: 'Per Document', value: 'per-document', description: 'One mapping job per document, merged: a control takes its best status' },
    ],
    default: 'combined',
  },
  {
    displayName: 'Coverage Threshold (%)',
    name: 'threshold',
    type: 'number',
    typeOptions: { minValue: 0, maxValue: 100 },
    default: 80,
    description: 'The gate passes when coverage (covered 1, partial ½) reaches this',
  },
  {
    displayName: 'Split Gaps Into Items',
    name: 'splitGaps',
    type: 'boolean',
    default: false,
    description: 'Whether to output one item per gap (each with the verdict) instead of one item with the verdict and all gaps',
  },
  {
    displayName: 'Options',
    name: 'reportOptions',
    type: 'collection',
    placeholder: 'Add option',
    default: {},
    displayOptions: { show: { splitGaps: [false] } },
    options: [
      {
        displayName: 'Commit',
        name: 'commit',
        type: 'string',
        default: '',
        description: 'The commit the documents were read at (full SHA): evidence links point at its lines',
      },
      {
        displayName: 'Report Formats',
        name: 'formats',
        type: 'multiOptions',
        options: [
          { name: 'DOCX (Service Rendering)', value: 'docx' },
          { name: 'HTML', value: 'html' },
          { name: 'JSON', value: 'json' },
          { name: 'JUnit XML', value: 'junit' },
          { name: 'Markdown', value: 'md' },
          { name: 'PDF (Service Rendering)', value: 'pdf' },
          { name: 'SARIF 2.1.0', value: 'sarif' },
        ],
        default: [],
        description: 'Report files to attach as binary fields named after each format (report.html in field html, and so on)',
      },
      {
        displayName: 'Repository',
        name: 'repository',
        type: 'string',
        default: '',
        placeholder: 'acme/policies',
        description: 'Owner/name of the repository the documents come from, for evidence links',
      },
      {
        displayName: 'Server URL',
        name: 'serverUrl',
        type: 'string',
        default: 'https://github.com',
        description: 'Where the repository is browsed, for evidence links',
      },
    ],
  },
];

export const description = updateDisplayOptions({ show: { resource: ['review'], operation: ['mapPolicySet'] } }, properties);

export async function executeOnce(this: IExecuteFunctions, items: INodeExecutionData[], client: ComplianceClient): Promise<INodeExecutionData[]> {
  const framework = locatorValue.call(this, 'framework', 0, 'Framework') ?? '';
  const { files } = await documentsOf(this, items, 'Map Policy Set');
  const mode = this.getNodeParameter('mappingMode', 0, 'combined') as 'combined' | 'per-document';
  const threshold = this.getNodeParameter('threshold', 0, 80) as number;
  const signal = this.getExecutionCancelSignal?.();
  const run = await runMapping(client, { framework, files, mode, ...(signal ? { signal } : {}) });
  const gate = evaluateGate(traceReports(run.reports, files), { framework, threshold, waivers: [], today: new Date().toISOString().slice(0, 10), failOn: 'coverage' });
  const verdict: IDataObject = {
    passed: gate.passed,
    coverage: gate.coverage,
    threshold: gate.threshold,
    reasons: gate.reasons,
    warnings: gate.warnings,
    framework: asData(gate.framework),
    summary: asData(gate.summary),
    jobIds: gate.jobIds,
  };
  const paired = items.map((_, item) => ({ item }));
  if (this.getNodeParameter('splitGaps', 0, false) as boolean) {
    return gate.gaps.map((gap) => ({ json: { ...asData(gap), gate: verdict }, pairedItem: paired }));
  }
  const reportOptions = this.getNodeParameter('reportOptions', 0, {}) as { formats?: string[]; repository?: string; commit?: string; serverUrl?: string };
  const formats = parseReportFormats(reportOptions.formats ?? [], 'Report Formats');
  const item: INodeExecutionData = { json: { ...verdict, gaps: gate.gaps as unknown as IDataObject[], controls: gate.controls as unknown as IDataObject[] }, pairedItem: paired };
  if (formats.length > 0) {
    const report = buildReviewReport([gate], {
      generatedAt: new Date().toISOString(),
      ...(reportOptions.repository?.trim() ? { repository: reportOptions.repository.trim() } : {}),
      ...(reportOptions.commit?.trim() ? { commit: reportOptions.commit.trim() } : {}),
      ...(reportOptions.serverUrl?.trim() ? { serverUrl: reportOptions.serverUrl.trim() } : {}),
    });
    const published = await buildReportFiles(client, report, formats);
    item.binary = {};
    for (const file of published.files) {
      const field = item.binary[file.format] ? `${file.format}_${Object.keys(item.binary).length}` : file.format;
      item.binary[field] = await this.helpers.prepareBinaryData(Buffer.from(file.data), file.name, file.mediaType.split(';')[0]);
    }
    if (published.failures.length > 0) item.json.reportWarnings = published.failures.map((failure) => failure.message);
  }
  return [item];
}
