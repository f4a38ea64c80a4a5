/**
 * Review → Map Policy Set: the input items (a set of policy documents) mapped against a verified
 * framework and judged by review/'s map check (runMapCheck), the one the map action and `compliance
 * map` run: its money rule (priced, capped by Max Tokens, reserved before the call, or a dry run),
 * the catalogue's check of the framework, the mapping, the gate with the waivers given, the report
 * and the verdict (status passed, failed, not-evaluated, refused or skipped, with the figures and
 * tokens spent). Its event is `other` (the user asked for this run), and it only maps: nothing is
 * written to the library. One item: the verdict with the gaps, or one item per gap, each with the
 * verdict beside it. Report files (HTML, SARIF, JUnit, …) come from review/'s one publisher, as
 * binary fields of the verdict item. The clock is the caller's (`now`).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import type { MappingMode, Waiver } from '../../../../../review/config.js';
import { eventPolicy } from '../../../../../review/events.js';
import type { GateResult } from '../../../../../review/gate.js';
import { givenDocumentsHead, runMapCheck } from '../../../../../review/pullRequest.js';
import { buildReportFiles, parseReportFormats } from '../../../../../review/publish.js';
import type { Verdict } from '../../../../../review/verdict.js';
import { frameworkLocator, locatorValue } from '../../helpers/locators.js';
import { readMaxTokens, refusalError, refusalFields } from '../../helpers/spend.js';
import { asData, jsonList } from '../../helpers/utils.js';
import { documentInputProperties, documentsOf } from './documentInput.js';

const properties: INodeProperties[] = [
  {
    ...frameworkLocator({ description: 'The verified framework to map the set against, by its slug or its name in the catalogue', byNameToo: true }),
    hint: 'Only verified frameworks can be mapped against: one the service cannot map gives status not-evaluated',
  },
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
    displayName: 'Waivers',
    name: 'waivers',
    type: 'json',
    default: '[]',
    hint: 'For example [{"control": "164.308(a)(1)", "reason": "accepted", "owner": "ciso", "expires": "2027-01-31"}]',
    description:
      "Accepted gaps, as compliance.yml's waivers: control, reason, owner and expires (YYYY-MM-DD, the last day it holds). A waived gap counts as covered and never opens an issue; after its expiry it counts again.",
  },
  {
    displayName: 'Max Tokens',
    name: 'maxTokens',
    type: 'number',
    typeOptions: { minValue: 0 },
    default: 0,
    description: 'Refuse the mapping, before spending anything, when it costs more than this at live prices. 0: no cap (the balance still applies).',
  },
  {
    displayName: 'Dry Run',
    name: 'dryRun',
    type: 'boolean',
    default: false,
    description: 'Whether to only plan and price the mapping (status skipped), spending nothing',
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

const WAIVER_EXAMPLE = '[{"control": "A.5.15", "reason": "accepted", "owner": "ciso", "expires": "2027-01-31"}]';

/** The Waivers parameter as review/'s waivers: each names a control, why, who and until when; its framework defaults to this one. */
function waiversOf(context: IExecuteFunctions, framework: string): Waiver[] {
  const entries = jsonList(context, context.getNodeParameter('waivers', 0, '[]'), 'Waivers in Map Policy Set', WAIVER_EXAMPLE);
  return entries.map((entry, index) => {
    const field = (name: string) => {
      const value = (entry as Record<string, unknown> | null)?.[name];
      return typeof value === 'string' ? value.trim() : '';
    };
    const missing = ['control', 'reason', 'owner', 'expires'].filter((name) => !field(name));
    const expires = field('expires');
    if (missing.length > 0 || !/^\d{4}-\d{2}-\d{2}$/.test(expires) || Number.isNaN(Date.parse(expires))) {
      throw new NodeOperationError(context.getNode(), `Waivers in Map Policy Set: waiver ${index + 1} ${missing.length > 0 ? `has no ${missing.join(', ')}` : `expires on "${expires}", not a date written YYYY-MM-DD`}`, {
        description: `Give each waiver a control, a reason, an owner and the last day it holds, for example ${WAIVER_EXAMPLE}.`,
      });
    }
    return { framework: field('framework') || framework, control: field('control'), reason: field('reason'), owner: field('owner'), expires };
  });
}

/** The verdict as an item: its status, reasons and figures (tokens spent among them), beside the gate's detail when it mapped. */
function verdictItem(verdict: Verdict, gate: GateResult | undefined, dryRun: boolean): IDataObject {
  return {
    status: verdict.status,
    passed: verdict.passed,
    reasons: verdict.reasons,
    coverage: gate?.coverage ?? null,
    effectiveCoverage: gate?.effectiveCoverage ?? null,
    threshold: gate?.threshold ?? null,
    warnings: gate?.warnings ?? [],
    framework: asData(gate?.framework ?? null),
    summary: asData(gate?.summary ?? null),
    jobIds: gate?.jobIds ?? [],
    tokensSpent: verdict.figures.tokensSpent,
    plannedTokens: verdict.figures.plannedTokens,
    maxTokens: verdict.figures.maxTokens ?? null,
    mode: verdict.figures.mode ?? null,
    dryRun,
    figures: asData(verdict.figures),
  };
}

/** The report's links: where the documents come from, at which commit, browsed where. */
function linkOptions(options: { repository?: string; commit?: string; serverUrl?: string }): { repository?: string; commit?: string; serverUrl?: string } {
  const given = (value: string | undefined) => value?.trim() || undefined;
  const repository = given(options.repository);
  const commit = given(options.commit);
  const serverUrl = given(options.serverUrl);
  return { ...(repository ? { repository } : {}), ...(commit ? { commit } : {}), ...(serverUrl ? { serverUrl } : {}) };
}

export async function executeOnce(
  this: IExecuteFunctions,
  items: INodeExecutionData[],
  client: ComplianceClient,
  now: () => Date = () => new Date(),
): Promise<INodeExecutionData[]> {
  const framework = locatorValue.call(this, 'framework', 0, 'Framework') ?? '';
  const { files } = await documentsOf(this, items, 'Map Policy Set');
  const mode = this.getNodeParameter('mappingMode', 0, 'combined') as MappingMode;
  const threshold = this.getNodeParameter('threshold', 0, 80) as number;
  const waivers = waiversOf(this, framework);
  const cap = readMaxTokens(this, 'Map Policy Set', 'Set it to the most the mapping may cost, or 0 for no cap.');
  const dryRun = this.getNodeParameter('dryRun', 0, false) as boolean;
  const splitGaps = this.getNodeParameter('splitGaps', 0, false) as boolean;
  // Read before anything is spent: a bad format fails the node with nothing charged.
  const reportOptions = (splitGaps ? {} : this.getNodeParameter('reportOptions', 0, {})) as { formats?: string[]; repository?: string; commit?: string; serverUrl?: string };
  const formats = parseReportFormats(reportOptions.formats ?? [], 'Report Formats');
  const signal = this.getExecutionCancelSignal?.();
  const paired = items.map((_, item) => ({ item }));
  const at = now().toISOString();

  const { result, verdict } = await runMapCheck(client, {
    policy: eventPolicy({ kind: 'other' }),
    head: givenDocumentsHead(),
    base: undefined,
    request: { framework, threshold, mode, waivers, labels: { framework: 'Framework', threshold: 'Coverage Threshold (%)', waivers: 'Waivers' } },
    files,
    review: {
      // The node bundles no YAML parser (review/frontMatter.ts): front matter is left out of what is mapped, its declarations are not read.
      readDeclarations: () => [],
      today: at.slice(0, 10),
      now: at,
      ...linkOptions(reportOptions),
      ...(cap > 0 ? { maxTokens: cap } : {}),
      dryRun,
      ...(signal ? { signal } : {}),
    },
  });
  const gate = result.frameworks[0];
  if (verdict.status === 'refused' && !this.continueOnFail()) throw refusalError(this, 'Map Policy Set', result.budget);
  const json = verdictItem(verdict, gate, dryRun);
  if (result.status !== 'completed' || !gate) {
    const refusal = verdict.status === 'refused' ? refusalFields(result.budget) : {};
    return [{ json: { ...json, gaps: [], controls: [], ...refusal }, pairedItem: paired }];
  }
  if (splitGaps) {
    return gate.gaps.map((gap) => ({ json: { ...asData(gap), gate: json }, pairedItem: paired }));
  }
  const item: INodeExecutionData = { json: { ...json, gaps: gate.gaps as unknown as IDataObject[], controls: gate.controls as unknown as IDataObject[] }, pairedItem: paired };
  if (formats.length > 0) {
    const published = await buildReportFiles(client, result.report, formats);
    item.binary = {};
    for (const file of published.files) {
      const field = item.binary[file.format] ? `${file.format}_${Object.keys(item.binary).length}` : file.format;
      item.binary[field] = await this.helpers.prepareBinaryData(Buffer.from(file.data), file.name, file.mediaType.split(';')[0]);
    }
    if (published.failures.length > 0) item.json.reportWarnings = published.failures.map((failure) => failure.message);
  }
  return [item];
}
