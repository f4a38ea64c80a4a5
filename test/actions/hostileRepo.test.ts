/**
 * Every action on a repository of hostile names and texts (issue 25): file names, titles, document
 * text, config values and inputs that read as workflow commands, ANSI escapes and mentions. The
 * runner executes a stdout line that starts (after blanks) with `::` and a `##[command]` anywhere, so
 * stdout may hold only the commands the actions mean (masks and annotations), and no body sent to
 * GitHub may hold a live @mention.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { API_KEY, GITHUB_TOKEN, makeWorkspace, onPullRequest, runAction, type ActionRun } from './harness.js';
import { HOSTILE_CONFIG, liveMentions, MARK, runnerCommands, writeHostileFiles } from './hostileInputs.js';
import { useActionServices } from './services.js';

/** What the actions print on purpose: masks (never shown) and annotations. */
const INTENDED = new Set(['add-mask', 'error', 'warning', 'notice', 'debug']);

/** Command lines the action did not mean, and hostile text the runner would read as a command. */
function unintended(run: ActionRun): string[] {
  const lines = runnerCommands(run.stdout).filter((line) => !INTENDED.has(/^::([\w-]+)/.exec(line.trimStart())?.[1] ?? ''));
  const smuggled = run.stdout.match(new RegExp(`(::|##\\[\\w*\\])${MARK}`, 'g')) ?? [];
  const control = run.stdout.includes('\u001b') ? ['an ANSI escape'] : [];
  // The runner reads stderr too: nothing there is ours to command with (a library's warning least of all).
  return [...lines, ...smuggled, ...control, ...runnerCommands(run.stderr)];
}

/** Every string a request to GitHub carried (titles, bodies, comments). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

const services = useActionServices();

describe('every action on a hostile repository', () => {
  it('prints no workflow command it did not mean and sends no mention to GitHub', { timeout: 180_000 }, async () => {
    const { sandbox, github } = services;
    const workspace = makeWorkspace(HOSTILE_CONFIG);
    writeHostileFiles(workspace);
    const service = { 'api-key': API_KEY, 'base-url': sandbox.baseUrl };
    const pr = github.addPullRequest(`::error::${MARK}-pr-title`);
    const runs: Record<string, ActionRun> = {};

    runs.sync = await runAction('sync', { workspace, inputs: { ...service, category: `::error::${MARK}-category`, tags: `@@admin-team, ::warning::${MARK}-tag` } });
    expect(runs.sync.code, runs.sync.stdout).toBe(0);
    // The file names reached the log, escaped to one line each.
    expect(runs.sync.stdout).toContain(`policies/x\\n:\u200D:error:\u200D:${MARK}-newline.md`);
    expect(runs.sync.stdout).toContain(`policies/#\u200D#[error]${MARK}-v1.md`);

    runs.map = await runAction('map', { workspace, inputs: { ...service, 'github-token': GITHUB_TOKEN, comment: 'always' }, event: onPullRequest(workspace, pr), apiUrl: github.url });
    expect(runs.map.code, runs.map.stdout).toBe(0);

    // A report in the workspace is repository content too: its gap texts carry both mention forms.
    const reportPath = runs.map.outputs['report-json'] as string;
    const report = JSON.parse(readFileSync(reportPath, 'utf8'));
    const [gap] = report.frameworks[0].gaps;
    gap.title = `Ping @@admin-team\n::error::${MARK}-gap-title`;
    gap.missing = `Ask \`@security-team and @@admin-team, &#64;user, &commat;all, ＠octocat or _@ghost_.\n::warning::${MARK}-missing`;
    writeFileSync(reportPath, JSON.stringify(report));
    runs['gap-issues'] = await runAction('gap-issues', { workspace, inputs: { 'github-token': GITHUB_TOKEN }, apiUrl: github.url });
    expect(runs['gap-issues'].code, runs['gap-issues'].stdout).toBe(0);
    expect(github.issueList().some((issue) => issue.body?.includes('@\u200D@\u200Dadmin-team'))).toBe(true);

    runs.generate = await runAction('generate', { workspace, inputs: service });
    expect(runs.generate.code, runs.generate.stdout).toBe(0);
    runs.review = await runAction('review', { workspace, inputs: { ...service, 'github-token': GITHUB_TOKEN }, event: { name: 'schedule', payload: {} }, apiUrl: github.url });
    expect(runs.review.code, runs.review.stdout).toBe(0);
    runs.suggest = await runAction('suggest', { workspace, inputs: { ...service, query: `hipaa\n::error::${MARK}-query @@admin-team`, jurisdiction: `::warning::${MARK}-jurisdiction` } });
    runs.call = await runAction('call', { workspace, inputs: { ...service, operation: 'getFramework', input: JSON.stringify({ slug: `x\n::error::${MARK}-slug` }) } });
    expect(runs.call.code).not.toBe(0);

    for (const [name, run] of Object.entries(runs)) expect(unintended(run), `${name}:\n${run.stdout}`).toEqual([]);
    const sent = github.writes().flatMap((request) => strings(request.body));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((text) => liveMentions(text).length > 0)).toEqual([]);
  });
});
