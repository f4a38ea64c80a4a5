/**
 * report.junit.xml, the test-report format GitLab, Jenkins and Azure DevOps show: one test suite
 * per framework, one test case per control; an open gap is a failure, a waived gap is skipped with
 * its waiver. The suite's properties carry coverage and threshold; the failure text links the
 * evidence so far to its lines at the commit.
 */
import { escapeXml as escape, XML_DECLARATION } from '../api/xmlText.js';
import { evidencePlace, evidenceUrl } from './evidenceLinks.js';
import type { GateGap, GateResult } from './gate.js';
import { modeNote, type ReviewReport } from './reportDocument.js';

function testCase(report: ReviewReport, result: GateResult, control: GateResult['controls'][number], gap: GateGap | undefined): string {
  const name = `${control.id} ${control.title}`;
  const open = `<testcase classname="${escape(`compliance.${result.framework.key}`)}" name="${escape(name)}"`;
  const evidence = control.evidence.map((quote) => {
    const url = evidenceUrl(report, quote);
    return `- ${quote.quote} (${evidencePlace(quote) ?? 'no location'}${url ? ` ${url}` : ''})`;
  });
  if (!gap) return `    ${open}>${evidence.length ? `<system-out>${escape(evidence.join('\n'))}</system-out>` : ''}</testcase>`;
  if (gap.waived && gap.waiver) {
    return `    ${open}><skipped message="${escape(`waived until ${gap.waiver.expires}: ${gap.waiver.reason} (owner ${gap.waiver.owner})`)}"/></testcase>`;
  }
  const detail = [`Missing: ${gap.missing}`, `Recommendation: ${gap.recommendation}`, ...(evidence.length ? ['Evidence so far:', ...evidence] : [])].join('\n');
  const expired = gap.waiver?.expired ? `; waiver expired ${gap.waiver.expires}` : '';
  return `    ${open}><failure type="${gap.status}" message="${escape(`${gap.status}${gap.isNew ? ', new' : ''}${expired}: ${gap.missing}`)}">${escape(detail)}</failure></testcase>`;
}

export function renderReportJunit(report: ReviewReport): string {
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  const suites = report.frameworks.map((result) => {
    const gapOf = new Map(result.gaps.map((gap) => [gap.controlId, gap]));
    const cases = result.controls.map((control) => testCase(report, result, control, gapOf.get(control.id)));
    // A gap whose control the report does not list still gets its case.
    const listed = new Set(result.controls.map((control) => control.id));
    for (const gap of result.gaps) {
      if (!listed.has(gap.controlId)) cases.push(testCase(report, result, { id: gap.controlId, title: gap.title, status: gap.status, evidence: gap.evidence }, gap));
    }
    const suiteFailures = result.gaps.filter((gap) => !gap.waived).length;
    const suiteSkipped = result.gaps.length - suiteFailures;
    tests += cases.length;
    failures += suiteFailures;
    skipped += suiteSkipped;
    const properties = [
      ['coverage', String(result.coverage)],
      ['effectiveCoverage', String(result.effectiveCoverage)],
      ['threshold', String(result.threshold)],
      ['passed', String(result.passed)],
      ...(report.commit ? [['commit', report.commit]] : []),
    ].map(([name, value]) => `      <property name="${escape(name ?? '')}" value="${escape(value ?? '')}"/>`);
    return [
      `  <testsuite name="${escape(result.framework.name)}" tests="${cases.length}" failures="${suiteFailures}" errors="0" skipped="${suiteSkipped}" timestamp="${escape(report.generatedAt.replace(/Z$/, ''))}">`,
      '    <properties>',
      ...properties,
      '    </properties>',
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  // A framework that could not be evaluated is an error of its own suite, never an absent one.
  for (const entry of report.notEvaluated ?? []) {
    tests += 1;
    suites.push([
      `  <testsuite name="${escape(entry.framework)}" tests="1" failures="0" errors="1" skipped="0" timestamp="${escape(report.generatedAt.replace(/Z$/, ''))}">`,
      `    <testcase classname="${escape(entry.framework)}" name="evaluation"><error type="${escape(entry.code)}" message="${escape(`not evaluated: ${entry.message}`)}"/></testcase>`,
      '  </testsuite>',
    ].join('\n'));
  }
  const errors = report.notEvaluated?.length ?? 0;
  return `${XML_DECLARATION}<testsuites name="compliance${escape(modeNote(report.mode))}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}">\n${suites.join('\n')}\n</testsuites>\n`;
}
