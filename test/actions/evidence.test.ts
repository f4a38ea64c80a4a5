/**
 * What a pull request does to the evidence, as the runner runs actions/map: a fixture repository
 * with a git history. Commit A (the default branch) is reviewed; commit B deletes the only quote
 * evidencing one control and adds a document. The PR check annotates the exact line where the
 * quote stood, names the control and whether it is now a gap, and the comment lists evidence lost
 * and gained; every link (summary, report.md, report.html, JUnit, SARIF) points at the commit the run
 * checked out (GITHUB_SHA); the SARIF is valid 2.1.0 and the JUnit XML counts. Annotations are capped.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { sarifErrors } from '../fixtures/sarif/validateSarif.js';
import { addPolicy, HIPAA_CONFIG, makeWorkspace, pullRequestEvent, REPOSITORY, runAction } from './harness.js';
import { useActionServices } from './services.js';

const services = useActionServices();
const { inputs } = services;

function commit(root: string, message: string): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: root, GIT_CONFIG_NOSYSTEM: '1' } }).trim();
  if (message.startsWith('A')) git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.test', 'commit', '-q', '-m', message);
  return git('rev-parse', 'HEAD');
}

interface Quote {
  quote: string;
  file: string;
  line: number;
  endLine: number;
}
interface Control {
  id: string;
  status: string;
  evidence: Quote[];
}

describe('evidence lost and gained on a pull request (actions/map)', () => {
  it('annotates the line where the only evidence of a control stood, and the comment lists evidence lost and gained', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(10), { without: ['information-security-policy.md'] });
    const commitA = commit(workspace, 'A: policies');
    const base = await runAction('map', { workspace, inputs: inputs({ 'report-dir': 'base' }), env: { GITHUB_SHA: commitA } });
    expect(base.code, base.stdout + base.stderr).toBe(0);
    const reportA = JSON.parse(readFileSync(join(workspace, 'base/report.json'), 'utf8'));
    expect(reportA.commit).toBe(commitA);
    mkdirSync(join(workspace, '.baseline'));
    cpSync(join(workspace, 'base/report.json'), join(workspace, '.baseline/report.json'));

    // A covered control whose only evidence is one quote on a line no other control cites.
    const controls: Control[] = reportA.frameworks[0].controls;
    const cited = (file: string, line: number) => controls.filter((control) => control.evidence.some((quote) => quote.file === file && quote.line <= line && line <= quote.endLine));
    const only = controls.find((control) => control.status === 'covered' && control.evidence.length === 1 && control.evidence[0]!.line === control.evidence[0]!.endLine && cited(control.evidence[0]!.file, control.evidence[0]!.line).length === 1);
    expect(only, 'the fixture has a control with a single, unshared quote').toBeDefined();
    const quote = only!.evidence[0]!;
    const path = join(workspace, quote.file);
    const lines = readFileSync(path, 'utf8').split('\n');
    writeFileSync(path, [...lines.slice(0, quote.line - 1), ...lines.slice(quote.line)].join('\n'));
    addPolicy(workspace, 'information-security-policy.md');
    rmSync(join(workspace, 'base'), { recursive: true });
    const commitB = commit(workspace, 'B: delete one control\'s evidence, add the information security policy');

    const pr = services.github.addPullRequest();
    const run = await runAction('map', {
      workspace,
      inputs: inputs({ baseline: '.baseline/report.json', 'report-formats': 'html,sarif,junit', comment: 'always' }),
      event: pullRequestEvent(pr, { base: commitA }),
      apiUrl: services.github.url,
      env: { GITHUB_SHA: commitB },
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const reportB = JSON.parse(readFileSync(join(workspace, 'compliance-report/report.json'), 'utf8'));
    expect(reportB.commit).toBe(commitB);
    const after: Control = reportB.frameworks[0].controls.find((control: Control) => control.id === only!.id);
    const state = after.status === 'missing' ? 'it is now a gap' : 'it is still evidenced elsewhere';

    const removed = run.annotations.filter((annotation) => annotation.kind === 'warning' && annotation.properties.includes('Compliance evidence removed'));
    expect(removed.map((annotation) => annotation.properties)).toEqual([
      `title=Compliance evidence removed: ${only!.id},file=${quote.file},line=${quote.line},endLine=${quote.line}`,
    ]);
    expect(removed[0]!.message).toContain(`HIPAA Security Rule ${only!.id}`);
    expect(removed[0]!.message).toContain(state);

    const comment = services.github.commentsOn(pr).find((entry) => entry.body.startsWith('<!-- compliance-report:map -->'))!.body;
    expect(comment).toContain(`Evidence lost: ${only!.id} (${after.status === 'missing' ? 'now a gap' : 'still evidenced elsewhere'}).`);
    // Gained: controls the added document now evidences that the default branch did not credit with those quotes.
    const gainedLine = /Evidence gained: (.*)\.$/m.exec(comment)?.[1] ?? '';
    const fromNewDocument = reportB.frameworks[0].controls.filter((control: Control) => control.evidence.some((entry) => entry.file === 'policies/information-security-policy.md')).map((control: Control) => control.id);
    expect(fromNewDocument.length).toBeGreaterThan(0);
    for (const id of fromNewDocument) expect(gainedLine.split(', ')).toContain(id);

    // The same loss in SARIF, on the same line; links at commit B.
    const sarif = JSON.parse(readFileSync(join(workspace, 'compliance-report/report.sarif'), 'utf8'));
    const lost = sarif.runs[0].results.filter((result: { properties: { status: string } }) => result.properties.status === 'evidence-lost');
    expect(lost.map((result: { ruleId: string; locations: Array<{ physicalLocation: unknown }> }) => [result.ruleId, result.locations[0]!.physicalLocation])).toEqual([
      [`hipaa-security/${only!.id}`, { artifactLocation: { uri: quote.file }, region: { startLine: quote.line } }],
    ]);
    const markdown = readFileSync(join(workspace, 'compliance-report/report.md'), 'utf8');
    // GITHUB_SERVER_URL (the harness's https://github.example) is the server of every link.
    expect(markdown).toContain(`](https://github.example/${REPOSITORY}/blob/${commitB}/policies/`);
    expect(markdown).not.toContain(commitA);

    // Every format and surface links quotes at commit B, the commit the run checked out; none at A.
    const at = `https://github.example/${REPOSITORY}/blob/${commitB}/policies/`;
    const html = readFileSync(join(workspace, 'compliance-report/report.html'), 'utf8');
    const junitText = readFileSync(join(workspace, 'compliance-report/report.junit.xml'), 'utf8');
    expect(run.summary).toContain(`](${at}`);
    expect(html).toContain(`href="${at}`);
    expect(junitText).toContain(at);
    for (const text of [run.summary, html, junitText, JSON.stringify(sarif)]) expect(text).not.toContain(commitA);
    expect(sarif.runs[0].versionControlProvenance).toEqual([{ repositoryUri: `https://github.example/${REPOSITORY}`, revisionId: commitB }]);
    // The SARIF is valid 2.1.0; the JUnit XML parses, a suite per framework, a case per control, a failure per open gap.
    expect(sarifErrors(sarif)).toEqual([]);
    const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) }).parse(junitText);
    expect(junit.testsuites.testsuite).toHaveLength(1);
    expect(junit.testsuites.testsuite[0].testcase).toHaveLength(reportB.frameworks[0].controls.length);
    expect(Number(junit.testsuites.testsuite[0].failures)).toBe(reportB.frameworks[0].gaps.filter((gap: { waived: boolean }) => !gap.waived).length);
    // The comment says it once.
    expect(comment.split('Evidence lost:')).toHaveLength(2);
  });

  it('caps the annotations at 10 and counts the rest, which the comment lists', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(10));
    const commitA = commit(workspace, 'A: policies');
    const base = await runAction('map', { workspace, inputs: inputs({ 'report-dir': '.baseline' }), env: { GITHUB_SHA: commitA } });
    expect(base.code, base.stdout + base.stderr).toBe(0);
    const reportA = JSON.parse(readFileSync(join(workspace, '.baseline/report.json'), 'utf8'));
    const quotes: Quote[] = reportA.frameworks[0].controls.flatMap((control: Control) => control.evidence);
    // The document most quoted: its text is replaced by one line, so far more than 10 quotes go.
    const counts = new Map<string, number>();
    for (const quote of quotes) counts.set(quote.file, (counts.get(quote.file) ?? 0) + 1);
    const [file, quoted] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    expect(quoted).toBeGreaterThan(10);
    writeFileSync(join(workspace, file), '# Retired\n\nThis document is being rewritten.\n');
    const commitB = commit(workspace, 'B: empty the most quoted policy');

    const pr = services.github.addPullRequest();
    const run = await runAction('map', { workspace, inputs: inputs({ baseline: '.baseline/report.json', comment: 'always' }), event: pullRequestEvent(pr, { base: commitA }), apiUrl: services.github.url, env: { GITHUB_SHA: commitB } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const removed = run.annotations.filter((annotation) => annotation.properties.includes('Compliance evidence removed'));
    expect(removed).toHaveLength(10);
    for (const annotation of removed) expect(annotation.properties).toContain(`file=${file},`);
    const hidden = Number(/(\d+) more removed evidence quotes? listed in the pull request comment and the job summary \(GitHub shows at most 10 annotations per step\)/.exec(run.stdout)?.[1]);
    expect(hidden).toBeGreaterThan(0);
    // Lost controls are listed in full in the comment, the annotated ones among them.
    const comment = services.github.commentsOn(pr).find((entry) => entry.body.startsWith('<!-- compliance-report:map -->'))!.body;
    const lostLine = /Evidence lost: (.*?)\. Evidence gained/.exec(comment)?.[1] ?? '';
    const lost = lostLine.split(', ').map((entry) => entry.replace(/ \(.*\)$/, ''));
    for (const annotation of removed) expect(lost).toContain(/Compliance evidence removed: ([^,]+)/.exec(annotation.properties)?.[1]);
    expect(lost.length).toBeGreaterThan(10);
  });

  it('links at the repository the run is in (GITHUB_REPOSITORY), not the one compliance.yml names for the set', async () => {
    // compliance.yml names the set as another repository does (a copy, a fork, a monorepo's export).
    const workspace = makeWorkspace(HIPAA_CONFIG(10).replace('repository: acme/policies', 'repository: northwind-health/policies'));
    const sha = commit(workspace, 'A: policies');
    const run = await runAction('map', { workspace, inputs: inputs({ 'report-formats': 'md,html,sarif,junit' }), env: { GITHUB_SHA: sha } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(workspace, 'compliance-report/report.json'), 'utf8'));
    expect(report).toMatchObject({ repository: REPOSITORY, commit: sha });
    const at = `https://github.example/${REPOSITORY}/blob/${sha}/policies/`;
    for (const name of ['report.md', 'report.html', 'report.junit.xml', 'report.sarif']) {
      const text = readFileSync(join(workspace, 'compliance-report', name), 'utf8');
      expect(text, name).not.toContain('northwind-health/policies');
      if (name !== 'report.sarif') expect(text, name).toContain(at);
    }
    expect(run.summary).toContain(`](${at}`);
    const sarif = JSON.parse(readFileSync(join(workspace, 'compliance-report/report.sarif'), 'utf8'));
    expect(sarif.runs[0].versionControlProvenance).toEqual([{ repositoryUri: `https://github.example/${REPOSITORY}`, revisionId: sha }]);
  });
});
