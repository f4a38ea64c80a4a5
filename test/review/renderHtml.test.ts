/**
 * report.html as a whole, but for its style sheet, against a reviewed copy (__snapshots__/report.html,
 * opened in a browser when it changes: `npx vitest run test/review/renderHtml.test.ts -u` rewrites it),
 * over a report with every kind of row (renderings.fixture.ts) and a trend of earlier reviews.
 */
import { describe, expect, it } from 'vitest';
import { buildReviewReport, historyPoint, renderReportHtml, type GateResult } from '../../review/index.js';
import { renderedReport } from './renderings.fixture.js';

const withDeclared = (result: GateResult, declared: GateResult['declared']): GateResult => ({ ...result, declared });

describe('renderReportHtml', () => {
  it('renders the summary, each framework\'s bar, matrix, gaps, waivers and declarations, and the trend', async () => {
    const report = renderedReport({ mode: 'sandbox', notEvaluated: [{ framework: 'hippa', code: 'framework_not_found', message: 'no <such> framework' }] });
    const [nist, iso] = report.frameworks as [GateResult, GateResult];
    report.frameworks = [
      withDeclared(nist, { declared: 1, declaredWithoutEvidence: [{ controlId: 'C4', files: ['policies/a.md', 'policies/<b>.md'] }], evidencedUndeclared: [] }),
      withDeclared(iso, { declared: 2, declaredWithoutEvidence: [], evidencedUndeclared: ['X1'] }),
    ];
    const history = [
      historyPoint({ generatedAt: '2026-04-01T09:30:00Z', commit: 'a'.repeat(40), frameworks: [{ ...nist, effectiveCoverage: 20 }] }),
      historyPoint({ generatedAt: '2026-05-01T09:30:00Z', commit: undefined, frameworks: [{ ...nist, effectiveCoverage: 45.25 }, iso] }),
    ];
    // The style sheet is a constant of renderHtml.ts: left out, so the copy shows what the report says.
    const html = renderReportHtml(report, { history }).replace(/<style>[\s\S]*?<\/style>/, '<style></style>');
    await expect(html).toMatchFileSnapshot('./__snapshots__/report.html');
  });

  it('says a lone review\'s trend in the singular, and passes without a repository or commit', () => {
    const report = buildReviewReport(renderedReport().frameworks.slice(1), { generatedAt: '2026-06-01T08:00:00Z' });
    const html = renderReportHtml(report);
    expect(html).toContain('<title>Compliance review: passed</title>');
    expect(html).toContain('<h1>Compliance review: <span class="verdict pass">passed</span></h1><p class="meta">reviewed 2026-06-01 08:00 UTC.</p>');
    expect(html).toContain('aria-label="Coverage of 1 framework over 1 review, from 2026-06-01 to 2026-06-01; the table below lists the figures."');
    expect(html).toContain('<circle cx="342.0" cy="8" r="3.5" fill="#0a4db3"><title>ISO 27001: 100% on 2026-06-01</title></circle>');
    expect(html).toContain('<td>—</td><td>100%</td></tr>');
    expect(html).toContain('Controls of ISO 27001 by the documents that evidence them (no document cited)</caption>');
    expect(renderReportHtml({ ...report, frameworks: [] })).not.toContain('Coverage trend');
  });
});
