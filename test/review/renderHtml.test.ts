/**
 * report.html as a whole, but for its style sheet, against a reviewed copy (__snapshots__/report.html,
 * opened in a browser when it changes: `npx vitest run test/review/renderHtml.test.ts -u` rewrites it),
 * over a report with every kind of row (renderings.fixture.ts) and a trend of earlier reviews.
 */
import { describe, expect, it } from 'vitest';
import { buildReviewReport, evaluateGate, historyPoint, renderReportHtml, type GateResult } from '../../review/index.js';
import { report } from './fixtures.js';
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
    expect(html).toContain('<h3>Waivers</h3>\n<p>None.</p>\n\n</section>');
    expect(renderReportHtml({ ...report, frameworks: [] })).toContain('</tbody></table>\n\n\n</main>');
  });

  it('counts quotes per document in the matrix, lists every quote and declaration, and keeps labels inside the chart', () => {
    const mapped = report({ C1: 'covered', C2: 'partial' }, { framework: { slug: 'soc 2..x', name: 'SOC 2' } });
    mapped.controls[0]!.evidence = [
      { quote: 'One', location: {}, file: 'a.md', line: 4 },
      { quote: 'Two', location: {}, file: 'a.md', line: 9 },
      { quote: 'Three', location: {}, file: 'b.md' },
    ];
    mapped.controls[1]!.evidence = [
      { quote: 'Said', location: {} },
      { quote: 'Also', location: {}, file: 'b.md', line: 2 },
    ];
    const waivers = [{ framework: 'soc 2..x', control: 'C2', reason: 'Later', owner: 'ops', expires: '2026-06-03' }];
    const gate = evaluateGate(mapped, { framework: 'soc 2..x', threshold: 90, waivers, today: '2026-06-01', failOn: 'coverage' });
    const declared = { declared: 3, declaredWithoutEvidence: [{ controlId: 'C7', files: ['a.md'] }, { controlId: 'C8', files: ['b.md'] }], evidencedUndeclared: ['C1', 'C2'] };
    const html = renderReportHtml(buildReviewReport([{ ...gate, declared }], { generatedAt: '2026-06-01T08:00:00Z' }));
    expect(html).toContain('<section aria-labelledby="fw-soc-2-x"><h2 id="fw-soc-2-x">');
    expect(html).toContain('<td class="covered">✔ 2 quotes, line 4</td><td class="covered">✔ 1 quote</td></tr>');
    expect(html).toContain('<blockquote>Said (no location)</blockquote><blockquote>Also (b.md, line 2)</blockquote>');
    expect(html).toContain('<td>active, 3 days left</td>');
    expect(html).toContain('<text x="310" y="33">threshold 90%</text>');
    expect(html).toContain('<ul><li>C7: declared in a.md, not evidenced</li><li>C8: declared in b.md, not evidenced</li></ul>');
    expect(html).toContain('<ul><li>C1</li><li>C2</li></ul>');
  });
});
