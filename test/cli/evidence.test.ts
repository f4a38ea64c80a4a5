/**
 * Evidence people can point at, end to end: a fixture repository with a git history, reviewed by
 * the built CLI against a live-mode sandbox. Every credit carries its committed lines and the
 * commit; every format links the same quote to the same URL; the new formats cost nothing (the
 * ledger moves the same with and without them); report.html opens in headless Chromium with no
 * console error, no request beyond itself, and is keyboard-navigable.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { chromium } from 'playwright-core';
import { toolPath } from '../../scripts/tools/install.mjs';
import { chromiumPath } from '../systemPackages.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { sarifErrors } from '../fixtures/sarif/validateSarif.js';
import { balance, buildCli, cli, liveSandbox, removeRepo, ROOT, tempRepo } from './helpers.js';

const CHROMIUM = chromiumPath();
const FORMATS = 'md,json,html,sarif,junit';

function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', HOME: root } }).trim();
}

/** Letters and digits only: how a quote is compared with the committed lines, independent of the tracer. */
const words = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

interface Traced {
  quote: string;
  file?: string;
  line?: number;
  endLine?: number;
}

describe('every credit traced to a line at a commit (CLI, git fixture repository)', () => {
  let box: RunningSandbox;
  let root: string;
  let commitA: string;
  let report: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- report.json as written
  const out = (name: string) => readFileSync(join(root, 'out', name), 'utf8');

  beforeAll(async () => {
    buildCli();
    box = await liveSandbox();
    root = tempRepo({ count: 3, threshold: 10 });
    // A declaration the documents do not back, and one they do: front matter is read, never sent.
    const access = join(root, 'policies/access-control.md');
    writeFileSync(access, `---\nsatisfies:\n  hipaa-security: ["164.308(a)(4)", "164.999(z)"]\n---\n${readFileSync(access, 'utf8')}`);
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'add', '-A');
    git(root, '-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.test', 'commit', '-q', '-m', 'A: policies');
    commitA = git(root, 'rev-parse', 'HEAD');
    const run = await cli(['map', '--report-dir', 'out', '--formats', FORMATS, '--json'], { cwd: root, box });
    expect(run.code, run.stderr).toBe(0);
    report = JSON.parse(out('report.json'));
    // A second review with the first as its history: report.html's trend has two points.
    const site = await cli(['map', '--report-dir', 'site', '--formats', 'html', '--history', 'out'], { cwd: root, box });
    expect(site.code, site.stderr).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await box?.close();
    if (root) removeRepo(root);
  });

  it('report.json carries the commit and, for each evidence item, the committed lines that hold the quote', () => {
    expect(report.commit).toBe(commitA);
    const evidence: Traced[] = report.frameworks.flatMap((framework: { controls: Array<{ evidence: Traced[] }> }) => framework.controls.flatMap((control) => control.evidence));
    expect(evidence.length).toBeGreaterThan(5);
    for (const item of evidence) {
      expect(item, JSON.stringify(item)).toMatchObject({ file: expect.stringMatching(/^policies\/.+\.md$/), line: expect.any(Number), endLine: expect.any(Number) });
      const lines = readFileSync(join(root, item.file!), 'utf8').split('\n');
      const span = words(lines.slice(item.line! - 1, item.endLine).join(' '));
      const quote = words(item.quote.replace(/…$/, ''));
      expect(span, `${item.file}:${item.line}-${item.endLine}`).toContain(quote.split(' ').slice(0, 4).join(' '));
      expect(span).toContain(quote.split(' ').slice(-3).join(' '));
      // The first line of the span holds the quote's start: not a line too early.
      expect(words(lines[item.line! - 1]!)).toContain(quote.split(' ')[0]);
    }
  });

  it('links the same quote to <server>/<owner>/<repo>/blob/<commit>/<file>#L<a>-L<b> in report.md, report.html, JUnit and SARIF (valid 2.1.0)', () => {
    const framework = report.frameworks[0];
    const url = (item: Traced) => `https://github.com/acme/policies/blob/${commitA}/${item.file}#L${item.line}-L${item.endLine}`;
    const credited = framework.controls.find((control: { evidence: Traced[] }) => control.evidence.length > 0);
    const first = url(credited.evidence[0]);
    expect(out('report.md')).toContain(`](${first})`);
    expect(out('report.html')).toContain(`href="${first}"`);
    expect(out('report.junit.xml')).toContain(first);
    const sarif = JSON.parse(out('report.sarif'));
    expect(sarifErrors(sarif)).toEqual([]);
    // Each gap's result stands on its evidence's lines, or (none yet) on the framework's line of compliance.yml.
    for (const gap of framework.gaps as Array<{ controlId: string; evidence: Traced[] }>) {
      const result = sarif.runs[0].results.find((entry: { ruleId: string }) => entry.ruleId === `${framework.framework.key}/${gap.controlId}`);
      const evidence = gap.evidence.find((item) => item.file);
      expect(result.locations[0].physicalLocation).toEqual(evidence
        ? { artifactLocation: { uri: evidence.file }, region: { startLine: evidence.line, ...(evidence.endLine! > evidence.line! ? { endLine: evidence.endLine } : {}) } }
        : { artifactLocation: { uri: 'compliance.yml' }, region: { startLine: 7 } });
      if (evidence) expect(result.properties.evidenceUrl).toBe(url(evidence));
    }
    expect(sarif.runs[0].results).toHaveLength(framework.gaps.length);
    const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) }).parse(out('report.junit.xml'));
    expect(junit.testsuites.testsuite).toHaveLength(report.frameworks.length);
    expect(junit.testsuites.testsuite[0].testcase).toHaveLength(framework.controls.length);
    expect(Number(junit.testsuites.testsuite[0].failures)).toBe(framework.gaps.filter((gap: { waived: boolean }) => !gap.waived).length);
  });

  it('lists the declaration no evidence backs, with its file', () => {
    const declared = report.frameworks[0].declared;
    expect(declared.declaredWithoutEvidence).toContainEqual({ controlId: '164.999(z)', files: ['policies/access-control.md'] });
    expect(out('report.html')).toContain('164.999(z): declared in policies/access-control.md, not evidenced');
  });

  it('costs nothing beyond the mapping: the ledger moves the same with and without every new format', async () => {
    const before = await balance(box);
    const plain = await cli(['map', '--report-dir', 'plain', '--json'], { cwd: root, box });
    const middle = await balance(box);
    const all = await cli(['map', '--report-dir', 'all', '--formats', FORMATS, '--history', 'out', '--json'], { cwd: root, box });
    const after = await balance(box);
    expect([plain.code, all.code]).toEqual([0, 0]);
    expect(before - middle).toBe(plain.json.tokensSpent);
    expect(plain.json.tokensSpent).toBeGreaterThan(0);
    expect(middle - after).toBe(before - middle);
    expect(all.json.tokensSpent).toBe(plain.json.tokensSpent);
  });

  it('refuses an unknown format and a missing --history before spending anything, naming the flag', async () => {
    const before = await balance(box);
    const format = await cli(['map', '--report-dir', 'x', '--formats', 'md,xlsx'], { cwd: root, box });
    expect(format.code).not.toBe(0);
    expect(format.stderr).toContain('--formats: "xlsx" not one of: md, json, html, sarif, junit, pdf, docx');
    const history = await cli(['map', '--report-dir', 'x', '--formats', 'html', '--history', 'no-such-dir'], { cwd: root, box });
    expect(history.code).not.toBe(0);
    expect(history.stderr).toContain('--history no-such-dir: no such directory');
    expect(await balance(box)).toBe(before);
    expect(existsSync(join(root, 'x'))).toBe(false);
  });

  it.skipIf(!CHROMIUM && process.env.CI !== 'true')('report.html in headless Chromium: no console error, nothing fetched, keyboard-navigable, no serious axe-core violation, screenshot', async () => {
    if (!CHROMIUM) throw new Error('CI=true but chromium is missing: .ci/run installs it (apt-get install chromium)');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('request', (request) => requests.push(request.url()));
      const file = pathToFileURL(join(root, 'site/report.html')).href;
      await page.goto(file);
      expect(problems).toEqual([]);
      expect(requests).toEqual([file]);

      // The first Tab reaches the skip link, which moves focus to the report; then links and scrollable regions follow in order.
      await page.keyboard.press('Tab');
      // Evaluated as strings: the callbacks run in the page (DOM), which this program's types do not include.
      expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to the report');
      const focused: string[] = [];
      for (let index = 0; index < 12; index++) {
        await page.keyboard.press('Tab');
        focused.push(String(await page.evaluate(`(() => {
          const element = document.activeElement;
          return element ? element.tagName.toLowerCase() + (element.getAttribute('role') ? '[' + element.getAttribute('role') + ']' : '') : 'none';
        })()`)));
      }
      expect(focused.every((entry) => entry === 'a' || entry === 'div[region]'), focused.join(', ')).toBe(true);
      expect(focused).toContain('div[region]');
      // Every focusable element shows where focus is (the outline the stylesheet sets).
      const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
      expect(outline).toBe('solid');

      // Readable without colour: every matrix cell says in words what its colour says.
      const cells = await page.$$eval('table td.covered, table td.partial, table td.missing, table td.none', (elements) => elements.map((element) => element.textContent ?? ''));
      expect(cells.length).toBeGreaterThan(10);
      for (const text of cells) expect(text).toMatch(/^(✔ covered|◐ partial|✘ missing|— none|✔ \d+ quotes?, line \d+|✔ passed|✘ failed)$/);
      // Every image has a text alternative; every table column has a header.
      expect(await page.$$eval('svg', (svgs) => svgs.filter((svg) => !svg.getAttribute('aria-label')).length)).toBe(0);
      expect(await page.$$eval('table', (tables) => tables.filter((table) => table.querySelectorAll('th').length === 0).length)).toBe(0);
      expect(await page.evaluate('document.documentElement.lang')).toBe('en');
      // The automated accessibility check: axe-core (from the real suites' tools), injected inline, finds no serious or critical violation.
      // Evaluated through the DevTools protocol: the report's CSP (default-src 'none') rightly refuses an injected script tag.
      await page.evaluate(readFileSync(toolPath('axe-core/axe.min.js'), 'utf8'));
      const violations = (await page.evaluate(
        `axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })))`,
      )) as Array<{ id: string; impact: string | null; nodes: number }>;
      expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);

      const shots = join(ROOT, 'test-results/screenshots');
      mkdirSync(shots, { recursive: true });
      await page.evaluate('document.activeElement?.blur(); window.scrollTo(0, 0)');
      await page.screenshot({ path: join(shots, 'report-html.png'), fullPage: false });
      if (process.env.COMPLIANCE_UPDATE_DOCS_SCREENSHOTS === '1') copyFileSync(join(shots, 'report-html.png'), join(ROOT, 'docs/report-html.png'));
    } finally {
      await browser.close();
    }
  }, 60_000);
});
