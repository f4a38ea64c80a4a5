/**
 * report.junit.xml and report.md word for word, and report.sarif's messages, over a report with every
 * kind of row (see renderings.fixture.ts): what GitLab, Jenkins, code scanning, a job summary or a PR
 * comment show is what these say.
 */
import { describe, expect, it } from 'vitest';
import { buildReviewReport, evaluateGate, renderReportJunit, renderReportMarkdown, renderReportSarif, renderSyncMarkdown } from '../../review/index.js';
import { report } from './fixtures.js';
import { COMMIT, renderedReport } from './renderings.fixture.js';

const BLOB = `https://github.com/acme/policies/blob/${COMMIT}`;

/** The start of report.md over renderedReport(), in either detail: the headline, the table and the first framework's reasons. */
const HEAD = `# Compliance review: ❌ failed

| Framework | Coverage | With waivers | Threshold | Gaps | New gaps | Result |
|---|---|---|---|---|---|---|
| NIST Cybersecurity Framework 2.0 | 40% | 60% | 70% | 3 (+1 waived) | 1 | ❌ failed |
| ISO 27001 | 100% | 100% | 50% | 0 | — | ✅ passed |

## NIST Cybersecurity Framework 2.0: ❌ failed

Coverage **40%**, 60% with waivers; threshold 70%; 1 covered, 2 partial, 2 missing of 5 controls.

- ❌ coverage 60% (40% before waivers) is below the threshold of 70%
- ⚠️ EXPIRED WAIVER: C5 (ops) expired on 2026-05-01; the gap counts again. Reason was: Old excuse
- ⚠️ waiver for C1 is unused: it is no longer a gap; remove it from compliance.yml
`;

/** The first framework's waivers table. */
const WAIVERS = `### Waivers

| Control | Owner | Expires | State | Reason |
|---|---|---|---|---|
| C4 | sec-team | 2026-06-01 | active, 1 day left | Vendor contract pending |
| C5 | ops | 2026-05-01 | **expired** | Old excuse |
| C1 | ops | 2026-12-31 | unused | No longer needed |
`;

describe('renderReportJunit', () => {
  it('writes a suite per framework, a case per control and per unlisted gap, with evidence, failures and waived skips', () => {
    expect(renderReportJunit(renderedReport())).toBe(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<testsuites name="compliance" tests="7" failures="3" errors="0" skipped="1">
  <testsuite name="NIST Cybersecurity Framework 2.0" tests="5" failures="3" errors="0" skipped="1" timestamp="2026-06-01T08:00:00">
    <properties>
      <property name="coverage" value="40"/>
      <property name="effectiveCoverage" value="60"/>
      <property name="threshold" value="70"/>
      <property name="passed" value="false"/>
      <property name="commit" value="0123456789abcdef0123456789abcdef01234567"/>
    </properties>
    <testcase classname="compliance.nist-csf-2" name="C1 Control C1"><system-out>- We encrypt | data (policies/security.md, lines 3-5 ${BLOB}/policies/security.md#L3-L5)</system-out></testcase>
    <testcase classname="compliance.nist-csf-2" name="C2 Control C2"><failure type="partial" message="partial: Nothing on C2">Missing: Nothing on C2
Recommendation: Write about C2
Evidence so far:
- Some words on C2 (policies/a.md)</failure></testcase>
    <testcase classname="compliance.nist-csf-2" name="C4 Control C4"><skipped message="waived until 2026-06-01: Vendor contract pending (owner sec-team)"/></testcase>
    <testcase classname="compliance.nist-csf-2" name="C5 Control C5"><failure type="partial" message="partial; waiver expired 2026-05-01: Nothing on C5">Missing: Nothing on C5
Recommendation: Write about C5
Evidence so far:
- Evidence for C5 (policies/security.md, line 3 ${BLOB}/policies/security.md#L3-L3)</failure></testcase>
    <testcase classname="compliance.nist-csf-2" name="C3 Control C3"><failure type="missing" message="missing, new: Nothing on C3">Missing: Nothing on C3
Recommendation: Write about C3</failure></testcase>
  </testsuite>
  <testsuite name="ISO 27001" tests="2" failures="0" errors="0" skipped="0" timestamp="2026-06-01T08:00:00">
    <properties>
      <property name="coverage" value="100"/>
      <property name="effectiveCoverage" value="100"/>
      <property name="threshold" value="50"/>
      <property name="passed" value="true"/>
      <property name="commit" value="0123456789abcdef0123456789abcdef01234567"/>
    </properties>
    <testcase classname="compliance.iso-27001" name="X1 Control X1"><system-out>- Said somewhere (no location)</system-out></testcase>
    <testcase classname="compliance.iso-27001" name="X2 Control X2"></testcase>
  </testsuite>
</testsuites>
`);
  });

  it('gives a framework not evaluated a suite with one error, and names no commit it does not know', () => {
    const notEvaluated = [{ framework: 'hippa', code: 'framework_not_found', message: 'no such framework' }];
    const junit = renderReportJunit(renderedReport({ commit: undefined, notEvaluated }));
    expect(junit).toContain('<testsuites name="compliance" tests="8" failures="3" errors="1" skipped="1">');
    expect(junit).toContain(
      [
        '  <testsuite name="hippa" tests="1" failures="0" errors="1" skipped="0" timestamp="2026-06-01T08:00:00">',
        '    <testcase classname="hippa" name="evaluation"><error type="framework_not_found" message="not evaluated: no such framework"/></testcase>',
        '  </testsuite>',
        '</testsuites>',
      ].join('\n'),
    );
    expect(junit).toContain(
      [
        '    <properties>',
        '      <property name="coverage" value="100"/>',
        '      <property name="effectiveCoverage" value="100"/>',
        '      <property name="threshold" value="50"/>',
        '      <property name="passed" value="true"/>',
        '    </properties>',
      ].join('\n'),
    );
    expect(junit).not.toContain('name="commit"');
    expect(junit).toContain('(policies/security.md, lines 3-5)</system-out>');
  });

  it('lists every quote of a passing control on its own line', () => {
    const report = renderedReport({ commit: undefined });
    const [nist] = report.frameworks;
    nist!.controls[0]!.evidence.push({ quote: 'Second', location: {}, file: 'b.md', line: 2 });
    expect(renderReportJunit(report)).toContain('<system-out>- We encrypt | data (policies/security.md, lines 3-5)\n- Second (b.md, line 2)</system-out>');
  });
});

describe('renderReportSarif', () => {
  it('says which gaps are new, and links the repository under a server named with trailing slashes', () => {
    const sarif = JSON.parse(renderReportSarif(renderedReport({ serverUrl: 'https://ghe.example//' }))).runs[0];
    const messages = (sarif.results as Array<{ ruleId: string; message: { text: string } }>).map((result) => [result.ruleId, result.message.text.split(':')[0]]);
    expect(messages).toEqual([
      ['nist-csf-2/C2', 'NIST Cybersecurity Framework 2.0 C2 Control C2 is partial'],
      ['nist-csf-2/C3', 'NIST Cybersecurity Framework 2.0 C3 Control C3 is missing (new)'],
      ['nist-csf-2/C4', 'NIST Cybersecurity Framework 2.0 C4 Control C4 is missing'],
      ['nist-csf-2/C5', 'NIST Cybersecurity Framework 2.0 C5 Control C5 is partial'],
    ]);
    expect(sarif.versionControlProvenance).toEqual([{ repositoryUri: 'https://ghe.example/acme/policies', revisionId: COMMIT }]);
  });
});

describe('renderReportMarkdown', () => {
  it('writes the full report: the table, each framework\'s reasons, controls, gaps and waivers', () => {
    expect(renderReportMarkdown(renderedReport())).toBe(`${HEAD}
### Controls

| Control | Title | Status | Evidence |
|---|---|---|---|
| C1 | Control C1 | covered | 1: [policies/security.md, lines 3-5](${BLOB}/policies/security.md#L3-L5), Crypto |
| C2 | Control C2 | partial | 1: policies/a.md |
| C4 | Control C4 | missing | — |
| C5 | Control C5 | partial | 1: [policies/security.md, line 3](${BLOB}/policies/security.md#L3-L3) |

### Gaps (3, +1 waived)

#### C2 Control C2 (partial)

**Missing:** Nothing on C2

**Recommendation:** Write about C2

**Evidence so far:**

> Some words on C2 (policies/a.md)

#### C3 Control C3 (missing, new)

**Missing:** Nothing on C3

**Recommendation:** Write about C3

#### C4 Control C4 (waived until 2026-06-01)

**Missing:** Nothing on C4

**Recommendation:** Write about C4

**Waiver:** Vendor contract pending (owner sec-team, expires 2026-06-01)

#### C5 Control C5 (**waiver expired 2026-05-01**)

**Missing:** Nothing on C5

**Recommendation:** Write about C5

**Evidence so far:**

> Evidence for C5 ([policies/security.md, line 3](${BLOB}/policies/security.md#L3-L3))

**Waiver:** Old excuse (owner ops, expires 2026-05-01)

${WAIVERS}
## ISO 27001 (2022): ✅ passed

Coverage **100%**; threshold 50%; 2 covered, 0 partial, 0 missing of 2 controls.

### Controls

| Control | Title | Status | Evidence |
|---|---|---|---|
| X1 | Control X1 | covered | 1: no location |
| X2 | Control X2 | covered | — |

### Gaps (0)

None.
`);
  });

  it('writes the summary: one line per gap with its evidence, up to maxGaps, and the rest counted', () => {
    expect(renderReportMarkdown(renderedReport(), { detail: 'summary', maxGaps: 2 })).toBe(`${HEAD}
### Gaps (3, +1 waived)

- **C2** Control C2 (partial): Nothing on C2 Evidence so far: policies/a.md.
- **C3** Control C3 (missing, new): Nothing on C3
… and 2 more gaps.

${WAIVERS}
## ISO 27001 (2022): ✅ passed

Coverage **100%**; threshold 50%; 2 covered, 0 partial, 0 missing of 2 controls.

### Gaps (0)

None.
`);
  });

  it('leads with the gate notes, what was not evaluated and the comparison, and says a sandbox key\'s results are samples', () => {
    const notEvaluated = [{ framework: 'hippa', code: 'framework_not_found', message: 'no such framework' }];
    const markdown = renderReportMarkdown(renderedReport({ mode: 'sandbox', notEvaluated }), { detail: 'summary', gateNotes: ['note one', 'note two'], comparison: ['| compared |', ''] });
    expect(markdown.split('\n').slice(0, 14)).toEqual([
      '# Compliance review: ❌ not evaluated (sandbox key: sample results, nothing charged)',
      '',
      '> note one',
      '',
      '> note two',
      '',
      '> **hippa: not evaluated** (framework_not_found): no such framework. The review cannot pass until every framework is evaluated.',
      '',
      '| compared |',
      '',
      '| Framework | Coverage | With waivers | Threshold | Gaps | New gaps | Result |',
      '|---|---|---|---|---|---|---|',
      '| NIST Cybersecurity Framework 2.0 | 40% | 60% | 70% | 3 (+1 waived) | 1 | ❌ failed |',
      '| ISO 27001 | 100% | 100% | 50% | 0 | — | ✅ passed |',
    ]);
    expect(markdown).toContain('| ISO 27001 | 100% | 100% | 50% | 0 | — | ✅ passed |\n| hippa | — | — | — | — | — | ❌ not evaluated |\n\n## NIST');
    // Every gap listed: no count of more, and a blank line before the waivers.
    expect(markdown).toContain('policies/security.md#L3-L3).\n\n### Waivers');
    // As many gaps as maxGaps allows: none counted as more.
    expect(renderReportMarkdown(renderedReport(), { detail: 'summary', maxGaps: 4 })).not.toContain('more gaps');
  });

  it('links to the commit given as an option, counts places past the shown ones, and escapes brackets in a link text', () => {
    const mapped = report({ C1: 'covered', C2: 'partial' }, { coverage: 33.333 });
    mapped.controls[0]!.evidence = [1, 2, 3, 4, 5, 6, 6].map((line) => ({ quote: `Line ${line}`, location: {}, file: 'policies/[x].md', line, endLine: line }));
    mapped.controls[1]!.evidence = [
      { quote: 'Intro words', location: { source: 'combined', section: 'Intro' } },
      { quote: 'More words', location: {}, file: 'a.md' },
      { quote: 'Other words', location: {}, file: 'b.md' },
      { quote: 'Placed nowhere', location: {} },
    ];
    const waivers = [{ framework: 'nist-csf-2', control: 'C2', reason: 'Later', owner: 'ops', expires: '2026-06-02' }];
    const gate = evaluateGate(mapped, { framework: 'nist-csf-2', threshold: 10, waivers, today: '2026-06-01', failOn: 'coverage' });
    const bare = buildReviewReport([gate], { generatedAt: '2026-06-01T08:00:00Z' });
    const links = { repository: 'acme/policies', commit: COMMIT };
    const full = renderReportMarkdown(bare, { links });
    const places = [1, 2, 3, 4, 5].map((line) => `[policies/\\[x\\].md, line ${line}](${BLOB}/policies/%5Bx%5D.md#L${line}-L${line})`);
    expect(full).toContain(`| C1 | Control C1 | covered | 7: ${places.join('; ')}; 1 more |`);
    expect(full).toContain('Coverage **33.3%**, 58.3% with waivers; threshold 10%');
    expect(full).toContain(`> Intro words (Intro)\n\n> More words ([a.md](${BLOB}/a.md))`);
    expect(full).toContain('| C2 | ops | 2026-06-02 | active, 2 days left | Later |');
    expect(full).toContain(`| C2 | Control C2 | partial | 4: Intro; [a.md](${BLOB}/a.md); [b.md](${BLOB}/b.md) |`);
    expect(renderReportMarkdown(bare, { detail: 'summary' })).toContain('(waived until 2026-06-02): Nothing on C2 Evidence so far: Intro; a.md; 1 more.');
    // Exactly as many places as are shown: none counted as more.
    const two = { ...gate.gaps[0]!, evidence: gate.gaps[0]!.evidence.slice(1, 3) };
    expect(renderReportMarkdown({ ...bare, frameworks: [{ ...gate, gaps: [two] }] }, { detail: 'summary' })).toContain('Evidence so far: a.md; b.md.\n');
    // Unlinked, brackets stay as written.
    expect(renderReportMarkdown(bare)).toContain('| C1 | Control C1 | covered | 7: policies/[x].md, line 1; ');
  });
});

describe('renderSyncMarkdown', () => {
  const file = (path: string, tokensSpent: number) => ({ kind: 'new' as const, path, documentId: undefined, outcome: 'ingested' as const, tokensSpent, message: 'sent | ok' });
  const run = { dryRun: false, mode: 'live' as const, results: [file('policies/a.md', 1_200_000), file('', 0)], tokensSpent: 1_200_000, pricedTokens: 1_200_000, complete: true, stoppedBecause: undefined };

  it('titles the run by what was sent, counts what a live key spent and lists each file', () => {
    expect(renderSyncMarkdown(run)).toBe(
      [
        '## Library sync',
        '',
        'Tokens spent: 1,200,000 tokens.',
        '',
        '| File | Plan | Outcome | Tokens | Note |',
        '|---|---|---|---|---|',
        '| policies/a.md | new | ingested | 1,200,000 | sent \\| ok |',
        '| — | new | ingested | 0 | sent \\| ok |',
        '',
      ].join('\n'),
    );
  });

  it('says when nothing was sent, why the run stopped, and that a sandbox key is never charged', () => {
    const stopped = { ...run, mode: 'sandbox' as const, stoppedBecause: 'the <b>cap</b>' };
    expect(renderSyncMarkdown(stopped, { refused: true }).split('\n').slice(0, 3)).toEqual([
      '## Library sync (refused: nothing sent)',
      '',
      'Tokens spent: 1,200,000 tokens (sandbox key: never charged). Stopped: the cap.',
    ]);
    expect(renderSyncMarkdown({ ...run, dryRun: true }).split('\n')[0]).toBe('## Library sync (dry run: nothing sent)');
  });
});
