/**
 * One verdict in every report format: a framework that could not be evaluated makes the report "not
 * evaluated" (never passed, listed, leading), and a sandbox key's results say so in every headline.
 */
import { describe, expect, it } from 'vitest';
import { buildReviewReport, evaluateGate, renderReportHtml, renderReportJunit, renderReportMarkdown, renderReportSarif } from '../../review/index.js';
import { report } from './fixtures.js';

const passing = evaluateGate(report({ A: 'covered', B: 'covered' }), { framework: 'nist-csf-2', threshold: 50, waivers: [], today: '2026-06-01', failOn: 'coverage' });
const misspelt = { framework: 'hippa', code: 'framework_not_found', message: 'No framework matches "hippa". Closest: HIPAA Security Rule (hipaa-security)' };
const build = (mode: 'sandbox' | 'live', notEvaluated = [misspelt]) => buildReviewReport([passing], { generatedAt: '2026-06-01T00:00:00Z', mode, notEvaluated });

describe('a framework that could not be evaluated', () => {
  it('leaves report.json not passed and listed, although every evaluated framework passed', () => {
    expect(build('live')).toMatchObject({ passed: false, notEvaluated: [misspelt], mode: 'live' });
    expect(build('live', [])).toMatchObject({ passed: true });
    expect(build('live', [])).not.toHaveProperty('notEvaluated');
  });

  it('is the headline of report.md, leads it (after the gate notes), and has its row', () => {
    const markdown = renderReportMarkdown(build('live'), { gateNotes: ['**This pull request changes the gate in compliance.yml.**'] });
    const lines = markdown.split('\n');
    expect(lines[0]).toBe('# Compliance review: ❌ not evaluated');
    expect(lines[2]).toBe('> **This pull request changes the gate in compliance.yml.**');
    expect(lines[4]).toMatch(/^> \*\*hippa: not evaluated\*\* \(framework_not_found\): No framework matches "hippa"/);
    expect(markdown).toContain('| hippa | — | — | — | — | — | ❌ not evaluated |');
  });

  it('is the verdict of report.html, report.sarif and report.junit.xml too', () => {
    expect(renderReportHtml(build('live'))).toContain('<title>Compliance review: not evaluated</title>');
    const sarif = JSON.parse(renderReportSarif(build('live'))).runs[0];
    expect(sarif.properties).toMatchObject({ passed: false, verdict: 'not evaluated', mode: 'live' });
    expect(sarif.invocations[0]).toMatchObject({ executionSuccessful: false, toolExecutionNotifications: [{ level: 'error', message: { text: expect.stringContaining('hippa: not evaluated (framework_not_found)') } }] });
    const junit = renderReportJunit(build('live'));
    expect(junit).toMatch(/<testsuites name="compliance" tests="\d+" failures="0" errors="1"/);
    expect(junit).toContain('<error type="framework_not_found" message="not evaluated: No framework matches');
  });
});

describe('the mode in every headline when it is not live', () => {
  it('a sandbox key says so in report.md, report.html, report.sarif and report.junit.xml; a live key adds nothing', () => {
    const sandbox = build('sandbox', []);
    const note = '(sandbox key: sample results, nothing charged)';
    expect(renderReportMarkdown(sandbox).split('\n')[0]).toBe(`# Compliance review: ✅ passed ${note}`);
    expect(renderReportHtml(sandbox)).toContain(`<title>Compliance review: passed ${note}</title>`);
    expect(JSON.parse(renderReportSarif(sandbox)).runs[0].properties.mode).toBe('sandbox');
    expect(renderReportJunit(sandbox)).toContain(`<testsuites name="compliance ${note}"`);
    const live = build('live', []);
    expect(renderReportMarkdown(live).split('\n')[0]).toBe('# Compliance review: ✅ passed');
    expect(renderReportJunit(live)).toContain('<testsuites name="compliance"');
  });
});

describe('buildReviewReport', () => {
  it('names the forge only for GitLab (GitHub is the default a reader assumes), and the key mode when known', () => {
    const meta = { generatedAt: '2026-06-01T00:00:00Z', repository: 'acme/policies', commit: 'c'.repeat(40), serverUrl: 'https://gitlab.example' };
    expect(buildReviewReport([passing], { ...meta, forge: 'gitlab', mode: 'live' })).toMatchObject({ forge: 'gitlab', mode: 'live', passed: true, ...meta });
    const github = buildReviewReport([passing], { ...meta, forge: 'github' });
    expect('forge' in github).toBe(false);
    expect('mode' in github).toBe(false);
    expect('notEvaluated' in github).toBe(false);
  });
});
