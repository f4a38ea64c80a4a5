/**
 * report.sarif (SARIF 2.1.0) for code scanning and every tool that reads it: one rule per control
 * with a gap; each open gap (and each evidence a change lost) a result located in the document
 * that evidences it, else at the framework's line in compliance.yml; waived gaps carry a
 * suppression with their justification and expiry, so they show as accepted, not open.
 */
import { configLine } from './configLine.js';
import { lostEvidenceMessage, type LostEvidence } from './evidenceChanges.js';
import { evidenceUrl } from './evidenceLinks.js';
import type { GateGap, GateResult } from './gate.js';
import { reportVerdict, type ReviewReport } from './reportDocument.js';

export interface SarifOptions {
  /** compliance.yml's repo path and text: a gap without evidence is located at its framework's line there. */
  configPath?: string;
  configText?: string;
  /** Evidence a change removed (see evidenceChanges): one result each, on the lines it stood. */
  lostEvidence?: readonly LostEvidence[];
  /** The package version, as the tool's version. */
  toolVersion?: string;
}

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

const ruleId = (framework: GateResult, controlId: string) => `${framework.framework.key}/${controlId}`;

function location(file: string, line: number | undefined, endLine: number | undefined) {
  return {
    physicalLocation: {
      // Relative to the repository root, as code scanning resolves it.
      artifactLocation: { uri: file.split('/').map(encodeURIComponent).join('/') },
      region: { startLine: line ?? 1, ...(line !== undefined && endLine !== undefined && endLine > line ? { endLine } : {}) },
    },
  };
}

export function renderReportSarif(report: ReviewReport, options: SarifOptions = {}): string {
  const configPath = options.configPath ?? 'compliance.yml';
  const rules: Array<Record<string, unknown>> = [];
  const ruleIndex = new Map<string, number>();
  const rule = (framework: GateResult, controlId: string, title: string): number => {
    const id = ruleId(framework, controlId);
    const known = ruleIndex.get(id);
    if (known !== undefined) return known;
    ruleIndex.set(id, rules.length);
    rules.push({
      id,
      name: controlId,
      shortDescription: { text: `${framework.framework.name} ${controlId}: ${title}` },
      fullDescription: { text: `Control ${controlId} (${title}) of ${framework.framework.name}.` },
      properties: { framework: framework.framework.key, tags: ['compliance', framework.framework.key] },
    });
    return rules.length - 1;
  };
  const gapResult = (framework: GateResult, gap: GateGap) => {
    const evidence = gap.evidence.find((quote) => quote.file);
    const where = evidence?.file
      ? location(evidence.file, evidence.line, evidence.endLine)
      : location(configPath, configLine(options.configText, 'framework', framework.framework.configured), undefined);
    const url = evidence ? evidenceUrl(report, evidence) : undefined;
    const suppressed = gap.waived && gap.waiver;
    return {
      ruleId: ruleId(framework, gap.controlId),
      ruleIndex: rule(framework, gap.controlId, gap.title),
      kind: 'fail',
      level: gap.status === 'missing' ? 'error' : 'warning',
      message: { text: `${framework.framework.name} ${gap.controlId} ${gap.title} is ${gap.status}${gap.isNew ? ' (new)' : ''}: ${gap.missing} Recommendation: ${gap.recommendation}` },
      locations: [where],
      partialFingerprints: { complianceGap: gap.key },
      ...(suppressed && gap.waiver
        ? { suppressions: [{ kind: 'external', status: 'accepted', justification: `${gap.waiver.reason} (owner ${gap.waiver.owner}, expires ${gap.waiver.expires})`, properties: { expires: gap.waiver.expires, owner: gap.waiver.owner } }] }
        : {}),
      properties: { framework: framework.framework.key, status: gap.status, ...(url ? { evidenceUrl: url } : {}) },
    };
  };
  const results: Array<Record<string, unknown>> = report.frameworks.flatMap((framework) => framework.gaps.map((gap) => gapResult(framework, gap)));
  for (const lost of options.lostEvidence ?? []) {
    if (!lost.evidence.file) continue;
    results.push({
      ruleId: ruleId(lost.framework, lost.controlId),
      ruleIndex: rule(lost.framework, lost.controlId, lost.title),
      kind: 'fail',
      level: lost.nowGap ? 'warning' : 'note',
      message: { text: lostEvidenceMessage(lost) },
      locations: [location(lost.evidence.file, lost.evidence.line, lost.evidence.endLine)],
      partialFingerprints: { complianceGap: `lost/${ruleId(lost.framework, lost.controlId)}` },
      properties: { framework: lost.framework.framework.key, status: 'evidence-lost' },
    });
  }
  const run = {
    tool: { driver: { name: 'compliance', ...(options.toolVersion ? { version: options.toolVersion } : {}), rules } },
    ...(report.commit && report.repository
      ? { versionControlProvenance: [{ repositoryUri: `${(report.serverUrl ?? 'https://github.com').replace(/\/+$/, '')}/${report.repository}`, revisionId: report.commit }] }
      : {}),
    results,
    // A run that could not evaluate a framework did not succeed; sandbox results are samples.
    invocations: [{ executionSuccessful: (report.notEvaluated?.length ?? 0) === 0, ...(report.notEvaluated?.length ? { toolExecutionNotifications: report.notEvaluated.map((entry) => ({ level: 'error', message: { text: `${entry.framework}: not evaluated (${entry.code}): ${entry.message}` } })) } : {}) }],
    properties: { passed: report.passed, verdict: reportVerdict(report), ...(report.mode ? { mode: report.mode } : {}), generatedAt: report.generatedAt },
  };
  return `${JSON.stringify({ $schema: SARIF_SCHEMA, version: '2.1.0', runs: [run] }, null, 2)}\n`;
}
