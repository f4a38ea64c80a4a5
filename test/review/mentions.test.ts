/**
 * One neutraliser defeats mentions however they are written (issue 37.4): character references,
 * numeric references, fullwidth and small forms, Markdown and HTML around the @; for GitHub and
 * GitLab alike. Checked on the neutraliser and on every body the product writes from repository or
 * service text: the report (report.md, which GitLab's merge-request note posts), the pull-request
 * comment and job summaries, gap issues (titles and bodies), the sync summary, the gate's notes and
 * the refusal of a spend, each rendered from inputs whose every text carries every mention form.
 */
import { describe, expect, it } from 'vitest';
import { renderAppliedMarkdown } from '../../actions/shared/gapIssues.js';
import type { AppliedGapIssues } from '../../actions/shared/github/gapIssues.js';
import { renderComment, renderReportSummary } from '../../actions/shared/reportRender.js';
import { renderRefusal } from '../../actions/shared/verdict.js';
import {
  buildReviewReport,
  decideVerdict,
  evaluateGate,
  neutralise,
  planGapIssues,
  renderReportMarkdown,
  renderSyncMarkdown,
  tableCell,
  traceReports,
  type ReviewReport,
  type ReviewResult,
} from '../../review/index.js';
import { eventPolicy } from '../../review/events.js';
import { readCiContext } from '../../review/ciContext.js';
import { gateConfiguration, gateNotes } from '../../review/gateConfig.js';
import type { SyncRunResult } from '../../review/syncRun.js';
import { parseConfig } from '../../review/config.js';
import { report as mappingReport } from './fixtures.js';
import { liveMentions, MENTION_FORMS } from './forgeMentions.js';

const HOSTILE = `Escalate to ${MENTION_FORMS.join(' and ')} today.`;

/** Every text field of `value` with the hostile text appended (identifiers, statuses and dates as they are). */
function withHostileText<T>(value: T): T {
  const TEXT = new Set(['title', 'name', 'quote', 'missing', 'recommendation', 'reason', 'owner', 'section', 'message', 'warnings', 'reasons']);
  const walk = (item: unknown, key?: string): unknown => {
    if (typeof item === 'string') return key && TEXT.has(key) ? `${item} ${HOSTILE}` : item;
    if (Array.isArray(item)) return item.map((element) => walk(element, key));
    if (item && typeof item === 'object') return Object.fromEntries(Object.entries(item).map(([name, field]) => [name, walk(field, name)]));
    return item;
  };
  return walk(value) as T;
}

function hostileReport(forge: 'github' | 'gitlab'): ReviewReport {
  const mapped = withHostileText(mappingReport({ C1: 'covered', C2: 'partial', C3: 'missing' }));
  const file = { path: `policies/${MENTION_FORMS[1]}.md`, content: `# Policy\n\n${mapped.controls[0]!.evidence[0]?.quote ?? HOSTILE}\n` };
  const gate = evaluateGate(traceReports([{ source: 'combined', jobId: 'job-1', report: mapped }], [file]), {
    framework: 'nist-csf-2',
    threshold: 50,
    waivers: [{ framework: 'nist-csf-2', control: 'C3', reason: HOSTILE, owner: MENTION_FORMS[0]!, expires: '2027-01-31' }],
    today: '2026-11-25',
    failOn: 'coverage',
  });
  const serverUrl = forge === 'gitlab' ? 'https://gitlab.example.com' : 'https://github.com';
  return buildReviewReport([gate], { generatedAt: '2026-11-25T10:00:00Z', repository: 'acme/policies', commit: '0123456789abcdef0123456789abcdef01234567', serverUrl, ...(forge === 'gitlab' ? { forge } : {}) });
}

describe('the neutraliser', () => {
  it.each(MENTION_FORMS)('leaves no mention of %s, alone or in a sentence', (form) => {
    // The form is live as written (the check below would see it), and dead once neutralised.
    expect(liveMentions(form), form).not.toEqual([]);
    for (const text of [form, `Escalate to ${form} today.`, `${form}\n${form}`]) {
      expect(liveMentions(neutralise(text)), text).toEqual([]);
      expect(liveMentions(tableCell(text)), text).toEqual([]);
    }
  });

  it('leaves e-mail addresses and plain text as they read, and may be applied twice', () => {
    expect(neutralise('mail ciso@northwind.example, first.last@acme.example or a_b@c.example')).toBe('mail ciso@northwind.example, first.last@acme.example or a_b@c.example');
    expect(neutralise('Terms & conditions: a < b, 5 > 3')).toBe('Terms &amp; conditions: a &lt; b, 5 > 3');
    for (const text of [HOSTILE, 'a & b < c', '&amp;#64;user']) expect(neutralise(neutralise(text))).toBe(neutralise(text));
  });
});

describe('every body written from repository or service text', () => {
  const report = hostileReport('github');
  const bodies: Array<[string, string]> = [
    ['report.md on GitLab (the merge-request note), with evidence links', renderReportMarkdown(hostileReport('gitlab'))],
    ['report.md on GitHub, with evidence links', renderReportMarkdown(report)],
    ['the pull-request comment', renderComment(report, { runUrl: 'https://github.com/acme/policies/actions/runs/1' })],
    ['the job summary, full', renderReportSummary(report, { detail: 'full' })],
    ['the job summary, short', renderReportSummary(report, { detail: 'summary' })],
  ];
  const plan = planGapIssues(report, [], { labels: ['compliance-gap'], assignees: [], titlePrefix: `[compliance] ${HOSTILE}`, closeResolved: true, maxNewPerRun: 10 });
  for (const draft of plan.create) bodies.push([`gap issue ${draft.key}: title`, draft.title], [`gap issue ${draft.key}: body`, draft.body]);
  const applied: AppliedGapIssues = {
    created: plan.create.map((draft, i) => ({ key: draft.key, number: i + 1, url: `https://github.com/acme/policies/issues/${i + 1}` })),
    updated: [],
    reopened: [],
    closed: [],
    unchanged: [],
    deferred: [],
    failed: [{ key: plan.create[0]!.key, message: HOSTILE }],
    refused: undefined,
  };
  bodies.push(['the gap-issues summary', renderAppliedMarkdown(plan, applied)]);
  const sync: SyncRunResult = {
    dryRun: false,
    mode: 'live',
    results: [{ path: `policies/${MENTION_FORMS[6]}.md`, kind: 'new', outcome: 'failed', tokensSpent: 0, pricedTokens: 0, message: HOSTILE } as SyncRunResult['results'][number]],
    tokensSpent: 0,
    pricedTokens: 0,
    complete: false,
    stoppedBecause: HOSTILE,
  };
  bodies.push(['the sync summary', renderSyncMarkdown(sync)]);
  const base = parseConfig('documents:\n  - paths: ["policies/*.md"]\nframeworks:\n  - framework: nist-csf-2\n    threshold: 80\n');
  const head = parseConfig(`documents:\n  - paths: ["policies/*.md"]\nframeworks:\n  - framework: nist-csf-2\n    threshold: 10\nwaivers:\n  - framework: nist-csf-2\n    control: C1\n    reason: ${JSON.stringify(HOSTILE)}\n    owner: ${JSON.stringify(MENTION_FORMS[0])}\n    expires: "2027-01-01"\n`);
  const policy = eventPolicy(readCiContext({ GITLAB_CI: 'true', CI_PIPELINE_SOURCE: 'merge_request_event', CI_MERGE_REQUEST_IID: '7' }, undefined).event);
  bodies.push(['the gate notes', gateNotes(gateConfiguration(policy, head, base), 'merge request').join('\n')]);
  const refused = { status: 'refused', mode: 'live', estimate: { lines: [{ operationId: 'mapDocument', count: 1, tokensEach: 250_000 }] }, budget: { allowed: false, plannedTokens: 250_000, chargedTokens: 0, maxTokens: 1, reasons: [HOSTILE] }, frameworks: [], frameworkErrors: [], tokensSpent: 0 } as unknown as ReviewResult;
  bodies.push(['the refusal of a spend', renderRefusal('review', refused, decideVerdict(refused), true)]);

  it.each(bodies)('%s pings nobody', (_name, body) => {
    expect(body.length).toBeGreaterThan(0);
    expect(liveMentions(body)).toEqual([]);
  });

  it('carries the hostile text into the bodies (so the check above looks at it)', () => {
    expect(bodies.filter(([, body]) => body.includes('today')).length).toBeGreaterThan(bodies.length / 2);
  });
});
