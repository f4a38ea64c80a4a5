/**
 * One line number per quote, the file's: the sandbox cites each quote of examples/ at the line it
 * stands on in its file (combined and per document), a traced quote carries that one number, and
 * every rendering (report.json, md, html, SARIF, JUnit, gap issues) shows it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComplianceClient } from '../../api/node/index.js';
import {
  buildReviewReport,
  evaluateGate,
  locateQuote,
  planGapIssues,
  policyText,
  renderReportFiles,
  runMapping,
  traceReports,
  type RepoFile,
} from '../../review/index.js';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { report as mappingReport } from './fixtures.js';

const EXAMPLES = join(import.meta.dirname, '../../examples/policies');
const FILES: RepoFile[] = readdirSync(EXAMPLES).map((name) => ({ path: `policies/${name}`, content: readFileSync(join(EXAMPLES, name), 'utf8') }));

describe("the sandbox's line of a quote is its line in the file", () => {
  let box: RunningSandbox;
  let client: ComplianceClient;
  beforeAll(async () => {
    box = await startSandbox({ port: 0, jobSeconds: 0 });
    client = new ComplianceClient({ apiKey: box.keys[0]!.key, baseUrl: box.baseUrl });
  });
  afterAll(async () => {
    await box?.close();
  });

  it.each(['combined', 'per-document'] as const)('every quote of examples/ mapped %s is cited at the line it stands on in its file', async (mode) => {
    const run = await runMapping(client, { framework: 'hipaa-security', files: FILES, mode });
    const contentOf = new Map(FILES.map((file) => [file.path, policyText(file.content)]));
    const misplaced: string[] = [];
    let quotes = 0;
    for (const { source, report } of run.reports) {
      for (const control of report.controls) {
        for (const quote of control.evidence) {
          quotes += 1;
          const file = quote.location.source ?? source;
          const found = locateQuote(contentOf.get(file) ?? '', quote.quote, quote.location.line);
          if (!found || found.line !== quote.location.line) misplaced.push(`${control.id} ${file}: cited at line ${quote.location.line}, stands at ${found?.line}`);
        }
      }
    }
    // Well over a hundred quotes (135 when this was written): none off by a line.
    expect(quotes).toBeGreaterThan(100);
    expect(misplaced).toEqual([]);
    // Traced, a quote keeps one number: the line in the file.
    for (const { report } of traceReports(run.reports, FILES)) {
      for (const quote of report.controls.flatMap((control) => control.evidence)) {
        expect(quote.location).not.toHaveProperty('line');
        expect(quote).toMatchObject({ file: expect.stringMatching(/^policies\//), line: expect.any(Number) });
      }
    }
  }, 60_000);
});

describe('every rendering shows the one line number', () => {
  const SECURITY = ['# Security', '', 'We encrypt data at rest', 'and in transit.', '', 'Staff complete security training when they join.', ''].join('\n');
  const files = [{ path: 'policies/security.md', content: SECURITY }];
  const mapped = mappingReport({ C1: 'covered', C2: 'partial' });
  // Lines the service counted in its own copy (41 and 42): only the file's (3-4 and 6) may be shown.
  mapped.controls[0]!.evidence = [{ quote: 'We encrypt data at rest and in transit.', location: { source: 'policies/security.md', line: 41 } }];
  mapped.controls[1]!.evidence = [{ quote: 'Staff complete security training when they join.', location: { source: 'policies/security.md', line: 42, section: 'Security' } }];
  const gate = evaluateGate(traceReports([{ source: 'combined', jobId: 'job-1', report: mapped }], files), { framework: 'nist-csf-2', threshold: 50, waivers: [], today: '2026-11-25', failOn: 'coverage' });
  const report = buildReviewReport([gate], { generatedAt: '2026-11-25T10:00:00Z', repository: 'acme/policies', commit: '0123456789abcdef0123456789abcdef01234567' });

  it('report.json, md, html, SARIF and JUnit cite lines 3-4 and 6, never the service lines', () => {
    const rendered = Object.fromEntries(renderReportFiles(report, ['md', 'json', 'html', 'sarif', 'junit']).map((file) => [file.format, String(file.data)]));
    for (const [format, text] of Object.entries(rendered)) {
      expect(text, format).not.toMatch(/\b4[12]\b/);
      // Linked at the commit, by the same line (report.json carries the numbers, no links).
      if (format !== 'json') expect(text, format).toContain('policies/security.md#L6-L6');
    }
    const quotes = (JSON.parse(rendered.json!) as { frameworks: Array<{ controls: Array<{ evidence: Array<Record<string, unknown>> }> }> }).frameworks[0]!.controls.flatMap((control) => control.evidence);
    expect(quotes.map(({ line, endLine, location }) => ({ line, endLine, location }))).toEqual([
      { line: 3, endLine: 4, location: { source: 'policies/security.md' } },
      { line: 6, endLine: 6, location: { source: 'policies/security.md', section: 'Security' } },
    ]);
    expect(rendered.md).toContain('policies/security.md, line 6');
    expect(rendered.html).toContain('policies/security.md, line 6');
    expect(rendered.junit).toContain('policies/security.md, line 6');
    const sarif = JSON.parse(rendered.sarif!) as { runs: Array<{ results: Array<{ locations: Array<{ physicalLocation: { region: { startLine: number } } }> }> }> };
    expect(sarif.runs[0]!.results.map((result) => result.locations[0]!.physicalLocation.region.startLine)).toEqual([6]);
  });

  it('a gap issue cites the file and its line', () => {
    const [draft] = planGapIssues([gate], [], { labels: ['compliance-gap'], assignees: [], titlePrefix: '', closeResolved: true, maxNewPerRun: 5 }).create;
    expect(draft!.body).toContain('> — policies/security.md, line 6, Security');
    expect(draft!.body).not.toMatch(/line 42/);
  });
});
