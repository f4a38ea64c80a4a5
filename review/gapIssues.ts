/**
 * Gap issues as a plan: one issue per framework and control, found again by a hidden marker in
 * its body, so re-runs never duplicate. Pure: the GitHub side (Actions, CLI --github) applies it.
 */
import type { GapIssueSettings } from './config.js';
import type { GateGap, GateResult } from './gate.js';
import { evidencePlace } from './evidenceLinks.js';
import { frameworkOfGapKey } from './keys.js';
import { neutralise, tableCell, truncate } from './neutralise.js';
import type { ReviewReport } from './reportDocument.js';

export interface ExistingIssue {
  number: number;
  title: string;
  body: string | null | undefined;
  state: 'open' | 'closed';
  labels: ReadonlyArray<string | { name?: string | null }>;
}

export interface GapIssueDraft {
  key: string;
  title: string;
  body: string;
  labels: string[];
  assignees: string[];
}

export interface GapIssuePlan {
  create: GapIssueDraft[];
  /** Body or title changed, or a closed issue whose gap is back (reopen). */
  update: Array<GapIssueDraft & { number: number; reopen: boolean }>;
  /** The gap is resolved: close with state_reason `completed` and this comment. */
  close: Array<{ number: number; key: string; title: string; stateReason: 'completed'; comment: string }>;
  unchanged: Array<{ number: number; key: string }>;
  /** Over maxNewPerRun: created by a later run. */
  deferred: GapIssueDraft[];
}

const MARKER_PREFIX = 'compliance-gap:';
const MAX_TITLE = 256;
// GitHub refuses bodies over 65,536 characters; evidence is shortened first.
const MAX_BODY = 60_000;

export function gapMarker(key: string): string {
  return `<!-- ${MARKER_PREFIX}${key} -->`;
}

export function markerKey(body: string | null | undefined): string | undefined {
  const match = /<!-- compliance-gap:(\S+) -->\s*$/.exec(body ?? '');
  return match?.[1];
}

function gapIssueTitle(gap: Pick<GateGap, 'controlId' | 'title'>, prefix: string): string {
  const text = `${prefix.trim()} ${gap.controlId}: ${gap.title}`.trim().replace(/\s+/g, ' ');
  return truncate(neutralise(text), MAX_TITLE);
}

function gapIssueBody(gap: GateGap, framework: GateResult['framework']): string {
  const head = [
    `**Framework:** ${tableCell(framework.name)} · **Control:** ${tableCell(gap.controlId)} ${tableCell(gap.title)} · **Status:** ${gap.status}`,
    '',
    '### What is missing',
    '',
    neutralise(gap.missing),
    '',
    '### Recommendation',
    '',
    neutralise(gap.recommendation),
    '',
  ];
  if (gap.waiver) {
    const state = gap.waiver.expired ? `**expired on ${gap.waiver.expires}**: this gap counts again` : `accepted until ${gap.waiver.expires}`;
    head.push('### Waiver', '', `${state} (owner ${tableCell(gap.waiver.owner)}): ${neutralise(gap.waiver.reason)}`, '');
  }
  const tail = [
    '---',
    '<sub>Opened by the compliance review loop from the mapping report; it is updated on each review and closed when the gap is resolved.</sub>',
    gapMarker(gap.key),
  ];
  const evidence = ['### Evidence so far', ''];
  if (gap.evidence.length === 0) evidence.push('None: the documents say nothing toward this control yet.', '');
  let budget = MAX_BODY - [...head, ...tail].join('\n').length - 200;
  let shown = 0;
  for (const quote of gap.evidence) {
    const where = [evidencePlace(quote), quote.location.section].filter(Boolean).join(', ');
    const line = `> ${tableCell(truncate(quote.quote, 1000))}${where ? `\n>\n> — ${tableCell(where)}` : ''}`;
    if (line.length + 2 > budget) {
      evidence.push(`… ${gap.evidence.length - shown} more quotes in the report.`, '');
      break;
    }
    shown++;
    budget -= line.length + 2;
    evidence.push(line, '');
  }
  return [...head, ...evidence, ...tail].join('\n');
}

function severity(gap: GateGap): number {
  return gap.status === 'missing' ? 0 : 1;
}

export function planGapIssues(
  results: readonly GateResult[] | ReviewReport,
  existingIssues: readonly ExistingIssue[],
  settings: GapIssueSettings,
): GapIssuePlan {
  const frameworks = Array.isArray(results) ? (results as readonly GateResult[]) : (results as ReviewReport).frameworks;
  const evaluated = new Set(frameworks.map((result) => result.framework.key));

  // One issue per key: the open one if any, else the most recent.
  const byKey = new Map<string, ExistingIssue>();
  for (const issue of [...existingIssues].sort((a, b) => a.number - b.number)) {
    const key = markerKey(issue.body);
    if (!key) continue;
    const seen = byKey.get(key);
    if (!seen || (seen.state === 'closed' && (issue.state === 'open' || issue.number > seen.number))) byKey.set(key, issue);
  }

  const plan: GapIssuePlan = { create: [], update: [], close: [], unchanged: [], deferred: [] };
  const current = new Set<string>();
  const toCreate: Array<{ draft: GapIssueDraft; gap: GateGap }> = [];
  for (const result of frameworks) {
    for (const gap of result.gaps) {
      current.add(gap.key);
      const draft: GapIssueDraft = {
        key: gap.key,
        title: gapIssueTitle(gap, settings.titlePrefix),
        body: gapIssueBody(gap, result.framework),
        labels: [...settings.labels],
        assignees: [...settings.assignees],
      };
      const existing = byKey.get(gap.key);
      // An accepted (waived) gap never opens or reopens an issue; an open one is kept up to date (it says until when).
      if (gap.waived && existing?.state !== 'open') continue;
      if (!existing) toCreate.push({ draft, gap });
      else if (existing.state === 'closed') plan.update.push({ ...draft, number: existing.number, reopen: true });
      else if ((existing.body ?? '').trim() !== draft.body.trim() || existing.title !== draft.title) plan.update.push({ ...draft, number: existing.number, reopen: false });
      else plan.unchanged.push({ number: existing.number, key: gap.key });
    }
  }

  toCreate.sort((a, b) => severity(a.gap) - severity(b.gap) || a.gap.controlId.localeCompare(b.gap.controlId));
  plan.create = toCreate.slice(0, settings.maxNewPerRun).map((entry) => entry.draft);
  plan.deferred = toCreate.slice(settings.maxNewPerRun).map((entry) => entry.draft);

  if (settings.closeResolved) {
    for (const [key, issue] of byKey) {
      // Frameworks not mapped in this run say nothing about their gaps.
      if (issue.state !== 'open' || current.has(key) || !evaluated.has(frameworkOfGapKey(key))) continue;
      plan.close.push({
        number: issue.number,
        key,
        title: issue.title,
        stateReason: 'completed',
        comment: 'Resolved: the latest mapping no longer reports this gap.',
      });
    }
  }
  return plan;
}
