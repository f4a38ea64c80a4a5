import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import {
  blankFrontMatter,
  buildReviewReport,
  evaluateGate,
  evidenceUrl,
  historyPoint,
  locateQuote,
  parseReportFormats,
  policyText,
  readDeclarations,
  renderReportFiles,
  renderReportMarkdown,
  renderReportSarif,
  ReviewError,
  traceReports,
  type ReviewReport,
} from '../../review/index.js';
import { assertWellFormedXml } from '../formats/xmlWellFormed.js';
import { sarifErrors } from '../fixtures/sarif/validateSarif.js';
import { report as mappingReport } from './fixtures.js';

const COMMIT = '0123456789abcdef0123456789abcdef01234567';
const SECURITY = [
  '---', // 1
  'satisfies:', // 2
  '  nist-csf-2: [C1, C4]', // 3
  '---', // 4
  '# Security', // 5
  '', // 6
  'We **encrypt** data at rest', // 7
  'and in transit.', // 8
  '', // 9
  'Evidence for C2 stands here.', // 10
  '',
].join('\n');
const ACCESS = ['# Access', '', 'Evidence for C5 is in the access policy.', ''].join('\n');
const FILES = [
  { path: 'policies/security.md', content: SECURITY },
  { path: 'policies/access.md', content: ACCESS },
];
const CONFIG_TEXT = ['repository: acme/policies', 'frameworks:', '  - framework: nist-csf-2', '    threshold: 50', ''].join('\n');

function gateReport(failOn: 'coverage' | 'declared-without-evidence' = 'coverage', today = '2026-11-25'): ReviewReport {
  const mapped = mappingReport({ C1: 'covered', C2: 'partial', C3: 'missing', C4: 'missing', C5: 'covered', C6: 'missing' });
  // The service's line for C1 is off (it counted in its own copy); the quote is trimmed of Markdown and line breaks.
  mapped.controls[0]!.evidence = [{ quote: 'We encrypt data at rest and in transit.', location: { source: 'policies/security.md', line: 99 } }];
  // A combined set's quote without a source: found in the one file that has it.
  mapped.controls[4]!.evidence = [{ quote: 'Evidence for C5 is in the access policy', location: {} }];
  const gate = evaluateGate(traceReports([{ source: 'combined', jobId: 'job-1', report: mapped }], FILES), {
    framework: 'nist-csf-2',
    threshold: 50,
    waivers: [{ framework: 'nist-csf-2', control: 'C6', reason: 'Vendor contract pending', owner: 'sec-team', expires: '2027-01-31' }],
    today,
    failOn,
    declarations: readDeclarations(FILES),
  });
  return buildReviewReport([gate], { generatedAt: '2026-11-25T10:00:00Z', repository: 'acme/policies', commit: COMMIT });
}

const C1_URL = `https://github.com/acme/policies/blob/${COMMIT}/policies/security.md#L7-L8`;
const C2_URL = `https://github.com/acme/policies/blob/${COMMIT}/policies/security.md#L10-L10`;

describe('evidence traced to the committed lines', () => {
  it('gives each quote its file, line and endLine in the document as committed', () => {
    const [framework] = gateReport().frameworks;
    const evidence = Object.fromEntries(framework!.controls.map((control) => [control.id, control.evidence.map(({ file, line, endLine }) => ({ file, line, endLine }))]));
    expect(evidence.C1).toEqual([{ file: 'policies/security.md', line: 7, endLine: 8 }]);
    expect(evidence.C2).toEqual([{ file: 'policies/security.md', line: 10, endLine: 10 }]);
    expect(evidence.C5).toEqual([{ file: 'policies/access.md', line: 3, endLine: 3 }]);
  });

  it('picks the occurrence nearest the service line, and keeps the service line when the text is not found', () => {
    const text = 'Backups run daily.\nother\nBackups run daily.\n';
    expect(locateQuote(text, 'Backups run daily', 3)).toEqual({ line: 3, endLine: 3 });
    expect(locateQuote(text, 'Backups run daily')).toEqual({ line: 1, endLine: 1 });
    expect(locateQuote(text, 'Restores are tested')).toBeUndefined();
    // Mapped per document: the report's source names the file its quotes come from.
    const perDocument = mappingReport({ X: 'covered' });
    perDocument.controls[0]!.evidence = [{ quote: 'Evidence for X', location: { line: 3 } }];
    const [sourced] = traceReports([{ source: 'policies/a.md', jobId: 'j', report: perDocument }], [{ path: 'policies/a.md', content: 'nothing alike\n' }]);
    expect(sourced!.report.controls[0]!.evidence[0]).toMatchObject({ file: 'policies/a.md', line: 3, endLine: 3 });
  });

  it('links each quote to <server>/<owner>/<repo>/blob/<commit>/<file>#L<a>-L<b>, and not without a commit', () => {
    const report = gateReport();
    const c1 = report.frameworks[0]!.controls[0]!.evidence[0]!;
    expect(evidenceUrl(report, c1)).toBe(C1_URL);
    expect(evidenceUrl({ ...report, serverUrl: 'https://ghe.example.com/' }, c1)).toBe(`https://ghe.example.com/acme/policies/blob/${COMMIT}/policies/security.md#L7-L8`);
    expect(evidenceUrl({ ...report, commit: undefined }, c1)).toBeUndefined();
    const markdown = renderReportMarkdown(report, { detail: 'full' });
    expect(markdown).toContain(`[policies/security.md, lines 7-8](${C1_URL})`);
    expect(markdown).toContain(`[policies/security.md, line 10](${C2_URL})`);
    // The short form (job summary when long, PR comment) links the gaps' evidence too.
    expect(renderReportMarkdown(report, { detail: 'summary' })).toContain(`(${C2_URL})`);
  });
});

describe('front matter: declared vs evidenced', () => {
  it('is blanked line for line before mapping, so it is never sent and every line keeps its number', () => {
    const blanked = blankFrontMatter(SECURITY);
    expect(blanked.split('\n')).toHaveLength(SECURITY.split('\n').length);
    expect(blanked).not.toContain('satisfies');
    expect(blanked.split('\n')[6]).toBe('We **encrypt** data at rest');
    expect(policyText(SECURITY)).not.toContain('nist-csf-2');
    expect(policyText(ACCESS)).toBe(ACCESS);
  });

  it('lists declared-but-not-evidenced with the declaring file and evidenced-but-undeclared, and fails on them when asked', () => {
    const warned = gateReport('coverage').frameworks[0]!;
    expect(warned.declared).toEqual({
      declared: 2,
      declaredWithoutEvidence: [{ controlId: 'C4', files: ['policies/security.md'] }],
      evidencedUndeclared: ['C2', 'C5'],
    });
    expect(warned.passed).toBe(true);
    expect(warned.warnings.join('\n')).toContain('declared in front matter without evidence: C4 (policies/security.md)');
    const failed = gateReport('declared-without-evidence').frameworks[0]!;
    expect(failed.passed).toBe(false);
    expect(failed.reasons).toEqual(['1 control declared in front matter without evidence: C4 (policies/security.md)']);
  });

  it('refuses malformed declarations naming the file and the fix', () => {
    const bad = [{ path: 'policies/bad.md', content: '---\nsatisfies: [C1]\n---\ntext\n' }];
    expect(() => readDeclarations(bad)).toThrow(ReviewError);
    expect(() => readDeclarations(bad)).toThrow(/policies\/bad\.md: front matter satisfies must map framework slugs/);
    expect(readDeclarations([{ path: 'a.md', content: '---\ntitle: x\n---\n' }])).toEqual([]);
  });
});

describe('report formats', () => {
  const files = (report: ReviewReport, history = [] as ReturnType<typeof historyPoint>[]) =>
    Object.fromEntries(renderReportFiles(report, ['md', 'json', 'html', 'sarif', 'junit'], { configPath: 'compliance.yml', configText: CONFIG_TEXT, history }).map((file) => [file.name, String(file.data)]));

  it('names each file once and checks the list a user typed, naming the field', () => {
    expect(Object.keys(files(gateReport()))).toEqual(['report.md', 'report.json', 'report.html', 'report.sarif', 'report.junit.xml']);
    expect(parseReportFormats(['HTML', ' sarif', 'html', ''], 'report-formats')).toEqual(['html', 'sarif']);
    expect(() => parseReportFormats(['xlsx'], 'report-formats')).toThrow('report-formats: "xlsx" is not a report format');
  });

  it('report.md is the full rendering, and the SARIF marks evidence the change removed', () => {
    const report = gateReport();
    const framework = report.frameworks[0]!;
    const lostEvidence = [{ framework, controlId: 'C1', title: 'Control C1', evidence: { quote: 'Old text.', location: {}, file: 'policies/security.md', line: 4, endLine: 4 }, stillEvidenced: false, nowGap: true }];
    const rendered = Object.fromEntries(renderReportFiles(report, ['md', 'sarif'], { lostEvidence }).map((file) => [file.format, String(file.data)]));
    expect(rendered.md).toContain('### Controls');
    const results = JSON.parse(rendered.sarif!).runs[0].results as Array<{ properties: { status: string }; level: string }>;
    expect(results.filter((result) => result.properties.status === 'evidence-lost')).toMatchObject([{ level: 'warning' }]);
  });

  it('report.json carries the commit and every traced evidence item', () => {
    const json = JSON.parse(files(gateReport())['report.json']!);
    expect(json.commit).toBe(COMMIT);
    expect(json.frameworks[0].controls[0].evidence[0]).toMatchObject({ file: 'policies/security.md', line: 7, endLine: 8 });
  });

  it('SARIF validates against the SARIF 2.1.0 schema: a result per open gap, waived gaps suppressed, no-evidence gaps at compliance.yml', () => {
    const sarif = JSON.parse(files(gateReport())['report.sarif']!);
    expect(sarifErrors(sarif)).toEqual([]);
    const results = sarif.runs[0].results as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- SARIF JSON
    expect(results.map((result) => result.ruleId)).toEqual(['nist-csf-2/C2', 'nist-csf-2/C3', 'nist-csf-2/C4', 'nist-csf-2/C6']);
    expect(sarif.runs[0].tool.driver.rules).toHaveLength(4);
    const c2 = results[0]!;
    expect(c2.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'policies/security.md' }, region: { startLine: 10 } });
    expect(c2.properties.evidenceUrl).toBe(C2_URL);
    expect(results[1]!.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'compliance.yml' }, region: { startLine: 3 } });
    expect(results[3]!.suppressions).toEqual([
      { kind: 'external', status: 'accepted', justification: 'Vendor contract pending (owner sec-team, expires 2027-01-31)', properties: { expires: '2027-01-31', owner: 'sec-team' } },
    ]);
    expect(results.filter((result) => result.suppressions)).toHaveLength(1);
    expect(sarif.runs[0].versionControlProvenance).toEqual([{ repositoryUri: 'https://github.com/acme/policies', revisionId: COMMIT }]);
  });

  it('SARIF levels: a missing control is an error, a partial one a warning; lost evidence a warning when the control is now a gap, else a note', () => {
    const report = gateReport();
    const [framework] = report.frameworks;
    const evidence = framework!.controls[0]!.evidence[0]!;
    const lost = (controlId: string, nowGap: boolean) => ({ framework: framework!, controlId, title: controlId, evidence, stillEvidenced: !nowGap, nowGap });
    const sarif = JSON.parse(renderReportSarif(report, { lostEvidence: [lost('C1', true), lost('C5', false)] }));
    expect(sarifErrors(sarif)).toEqual([]);
    const levels = (sarif.runs[0].results as Array<{ ruleId: string; level: string; properties: { status: string } }>).map((result) => [result.ruleId, result.properties.status, result.level]);
    expect(levels).toEqual([
      ['nist-csf-2/C2', 'partial', 'warning'],
      ['nist-csf-2/C3', 'missing', 'error'],
      ['nist-csf-2/C4', 'missing', 'error'],
      // Waived: still the level of what it is, suppressed as accepted.
      ['nist-csf-2/C6', 'missing', 'error'],
      ['nist-csf-2/C1', 'evidence-lost', 'warning'],
      ['nist-csf-2/C5', 'evidence-lost', 'note'],
    ]);
  });

  it('SARIF names each rule once, says what each result is and where, and suppresses only an active waiver', () => {
    // The waiver on C6 expired on 2027-01-31: the gap is open again, so code scanning must show it.
    const report = { ...gateReport('coverage', '2027-02-01'), serverUrl: 'https://ghe.example/', notEvaluated: undefined };
    const [framework] = report.frameworks;
    const evidence = framework!.controls[0]!.evidence[0]!;
    const lost = (controlId: string, quote = evidence) => ({ framework: framework!, controlId, title: `Control ${controlId}`, evidence: quote, stillEvidenced: false, nowGap: false });
    const lostEvidence = [lost('C2'), lost('C1'), lost('C5', { ...evidence, file: undefined }), lost('C4', { ...evidence, line: 3, endLine: 3 })];
    const sarif = JSON.parse(renderReportSarif(report, { configText: CONFIG_TEXT, lostEvidence, toolVersion: '9.9.9' }));
    expect(sarifErrors(sarif)).toEqual([]);
    const [run] = sarif.runs;
    const NIST = 'NIST Cybersecurity Framework 2.0';
    // C2 and C4, gaps already, keep their rule; C1, lost only, gets one more; C5's evidence names no file: no result.
    expect(run.tool.driver).toEqual({
      name: 'compliance',
      version: '9.9.9',
      rules: ['C2', 'C3', 'C4', 'C6', 'C1'].map((id) => ({
        id: `nist-csf-2/${id}`,
        name: id,
        shortDescription: { text: `${NIST} ${id}: Control ${id}` },
        fullDescription: { text: `Control ${id} (Control ${id}) of ${NIST}.` },
        properties: { framework: 'nist-csf-2', tags: ['compliance', 'nist-csf-2'] },
      })),
    });
    const results = run.results as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- SARIF JSON
    expect(results.map((result) => [result.ruleId, result.ruleIndex, result.kind, result.partialFingerprints.complianceGap, result.locations[0].physicalLocation.region])).toEqual([
      ['nist-csf-2/C2', 0, 'fail', 'nist-csf-2/C2', { startLine: 10 }],
      ['nist-csf-2/C3', 1, 'fail', 'nist-csf-2/C3', { startLine: 3 }],
      ['nist-csf-2/C4', 2, 'fail', 'nist-csf-2/C4', { startLine: 3 }],
      ['nist-csf-2/C6', 3, 'fail', 'nist-csf-2/C6', { startLine: 3 }],
      // Lost evidence spans the lines it stood on (7-8), or the one line (3-3).
      ['nist-csf-2/C2', 0, 'fail', 'lost/nist-csf-2/C2', { startLine: 7, endLine: 8 }],
      ['nist-csf-2/C1', 4, 'fail', 'lost/nist-csf-2/C1', { startLine: 7, endLine: 8 }],
      ['nist-csf-2/C4', 2, 'fail', 'lost/nist-csf-2/C4', { startLine: 3 }],
    ]);
    expect(results[3]).not.toHaveProperty('suppressions');
    expect(results[1]!.message.text).toBe(`${NIST} C3 Control C3 is missing: Nothing on C3 Recommendation: Write about C3`);
    expect(results[1]!.locations[0].physicalLocation.artifactLocation).toEqual({ uri: 'compliance.yml' });
    expect(results[5]!.message.text).toBe(`This change removes evidence for ${NIST} C1 Control C1: its evidence is weaker. The default branch credited: "We encrypt data at rest and in transit."`);
    expect(results[5]!.properties).toEqual({ framework: 'nist-csf-2', status: 'evidence-lost' });
    expect(run.versionControlProvenance).toEqual([{ repositoryUri: 'https://ghe.example/acme/policies', revisionId: COMMIT }]);
    expect(run.invocations).toEqual([{ executionSuccessful: true }]);
    expect(run.properties).toEqual({ passed: report.passed, verdict: 'failed', generatedAt: '2026-11-25T10:00:00Z' });

    // Without a commit there is no provenance to give; without a version the driver names none.
    const bare = JSON.parse(renderReportSarif({ ...report, commit: undefined }));
    expect(bare.runs[0]).not.toHaveProperty('versionControlProvenance');
    expect(bare.runs[0].tool.driver).not.toHaveProperty('version');
  });

  it('JUnit: one suite per framework, one case per control, gaps fail, waived gaps skip', () => {
    const xml = files(gateReport())['report.junit.xml']!;
    assertWellFormedXml(xml, 'report.junit.xml');
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name) }).parse(xml);
    const suites = parsed.testsuites.testsuite;
    expect(suites).toHaveLength(1);
    const cases = suites[0].testcase as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed XML
    expect(cases.map((entry) => entry.name)).toEqual(['C1 Control C1', 'C2 Control C2', 'C3 Control C3', 'C4 Control C4', 'C5 Control C5', 'C6 Control C6']);
    expect(cases.filter((entry) => entry.failure).map((entry) => entry.name.split(' ')[0])).toEqual(['C2', 'C3', 'C4']);
    expect(cases.filter((entry) => entry.skipped).map((entry) => entry.skipped.message)).toEqual(['waived until 2027-01-31: Vendor contract pending (owner sec-team)']);
    expect({ tests: suites[0].tests, failures: suites[0].failures, skipped: suites[0].skipped }).toEqual({ tests: '6', failures: '3', skipped: '1' });
    expect(parsed.testsuites).toMatchObject({ tests: '6', failures: '3', skipped: '1' });
    expect(cases[1]!.failure['#text']).toContain(C2_URL);
    expect(cases[0]!['system-out']).toContain(C1_URL);
  });

  it('HTML is self-contained, links every credit, shows the matrix in words and the trend over the history', () => {
    const earlier = historyPoint({ ...gateReport(), generatedAt: '2026-10-25T10:00:00Z', commit: 'a'.repeat(40), frameworks: [{ ...gateReport().frameworks[0]!, effectiveCoverage: 41.7 }] });
    const html = files(gateReport(), [earlier])['report.html']!;
    expect(html).not.toMatch(/<script|<link|@import|url\(|<img|<iframe/i);
    expect(html.match(/\ssrc=/g)).toBeNull();
    expect(html).toContain(`href="${C1_URL}"`);
    expect(html).toContain(`href="${C2_URL}"`);
    expect(html).toContain('✔ 1 quote, line 7');
    expect(html).toContain('<td class="none">— none</td>');
    expect(html).toContain('<th scope="col">policies/security.md</th><th scope="col">policies/access.md</th>');
    expect(html).toContain('C4: declared in policies/security.md, not evidenced');
    expect(html).toContain('2027-01-31');
    expect(html).toMatch(/<tr><th scope="row">2026-10-25 10:00<\/th><td>aaaaaaaaaaaa<\/td><td>41.7%<\/td><\/tr><tr><th scope="row">2026-11-25 10:00<\/th><td>0123456789ab<\/td><td>/);
    expect(html).toContain('<polyline');
  });

  it('escapes text from the repository in HTML and XML', () => {
    const report = gateReport();
    const evil = { ...report, frameworks: [{ ...report.frameworks[0]!, framework: { ...report.frameworks[0]!.framework, name: '<script>alert(1)</script>' } }] };
    const out = files(evil);
    expect(out['report.html']).not.toContain('<script>alert');
    expect(out['report.html']).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    assertWellFormedXml(out['report.junit.xml']!, 'report.junit.xml');
  });
});
