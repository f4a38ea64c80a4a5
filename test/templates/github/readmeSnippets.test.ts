/**
 * Every workflow snippet in the READMEs that uses one of our actions (```yaml blocks in
 * actions/README.md and README.md) is a whole workflow that runs: executed here as the templates
 * are (test/templates/workflowRunner.ts, against a live-mode sandbox key and the fake GitHub), each
 * on a fresh repository (its first run), and held to the templates' rules: pinned references, no
 * expression inside a `run:` script, least-privilege `permissions:`, actionlint clean.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';
import { FakeGitHub } from '../../actions/fakeGitHub.js';
import { GENERATE_ACCESS_CONTROL, GITHUB_TOKEN, pullRequestEvent, REPO_ROOT, REPOSITORY } from '../../actions/harness.js';
import { actionlint, formatFinding } from '../actionlint.js';
import { expressionsIn } from '../expressions.js';
import { GitHubGateway } from '../githubGateway.js';
import { CacheStore, makeOrigin, OUR_ACTION, pushBranch, resolvePermissions, runWorkflow, thirdPartyMetadata, triggers, type Step, type Workflow } from '../workflowRunner.js';

const LIVE_KEY = 'csk_live_readme_snippets_0001';
const READMES = ['actions/README.md', 'README.md'];

interface Snippet {
  where: string;
  text: string;
  workflow: Workflow;
}

function snippets(): Snippet[] {
  return READMES.flatMap((file) => {
    const markdown = readFileSync(join(REPO_ROOT, file), 'utf8');
    return [...markdown.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)]
      .filter((match) => /^\s*-?\s*uses:\s*\S+\/actions\/[a-z-]+@/m.test(match[1] as string))
      .map((match) => {
        const line = markdown.slice(0, match.index).split('\n').length;
        return { where: `${file}:${line}`, text: match[1] as string, workflow: parse(match[1] as string) as Workflow };
      });
  });
}

const SNIPPETS = snippets();
const stepsOf = (workflow: Workflow): Step[] => Object.values((workflow.jobs ?? {}) as Record<string, Workflow>).flatMap((job) => (job.steps ?? []) as Step[]);
const ours = (workflow: Workflow) => stepsOf(workflow).flatMap((step) => (typeof step.uses === 'string' ? OUR_ACTION.exec(step.uses)?.[1] ?? [] : []));

/** What a snippet may be granted: contents: read to check out, and each write one of its actions uses. */
function allowedPermissions(workflow: Workflow): Record<string, string> {
  const actions = ours(workflow);
  const on = triggers(workflow) ?? {};
  return {
    ...(stepsOf(workflow).some((step) => String(step.uses ?? '').startsWith('actions/checkout@')) ? { contents: 'read' } : {}),
    ...(actions.includes('map') && 'pull_request' in on ? { 'pull-requests': 'write' } : {}),
    ...(actions.some((name) => name === 'gap-issues' || name === 'review') ? { issues: 'write' } : {}),
  };
}

let sandbox: RunningSandbox;
let fake: FakeGitHub;
let github: GitHubGateway;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: 100_000, keys: [`${LIVE_KEY}:live:100000000`] });
  fake = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY }).start();
  github = await new GitHubGateway(fake).start();
});
afterAll(async () => {
  await github?.close();
  await fake?.close();
  await sandbox?.close();
});

describe('README workflow snippets', () => {
  it('there are snippets to check (one per action section of actions/README.md)', () => {
    expect(SNIPPETS.length).toBeGreaterThanOrEqual(7);
    expect(new Set(SNIPPETS.flatMap((snippet) => ours(snippet.workflow)))).toEqual(new Set(['sync', 'map', 'gap-issues', 'generate', 'suggest', 'review', 'call']));
  });

  it.each(SNIPPETS.map((snippet) => [snippet.where, snippet] as const))('%s follows the templates\' rules', { timeout: 60_000 }, async (_where, snippet) => {
    const { workflow } = snippet;
    expect((await actionlint(snippet.text, 'snippet.yml')).map(formatFinding)).toEqual([]);
    expect(triggers(workflow), 'a whole workflow: on:').toBeTruthy();
    for (const step of stepsOf(workflow)) {
      if (typeof step.uses === 'string' && !OUR_ACTION.test(step.uses)) expect(() => thirdPartyMetadata(step.uses), step.uses).not.toThrow();
      if (typeof step.run === 'string') expect(expressionsIn(step.run), `run: ${step.run}`).toEqual([]);
    }
    for (const [name, job] of Object.entries((workflow.jobs ?? {}) as Record<string, Workflow>)) {
      const granted = resolvePermissions(job.permissions ?? workflow.permissions, `job ${name}`);
      const allowed = allowedPermissions(workflow);
      for (const [scope, access] of Object.entries(granted)) if (access !== 'none') expect(`${scope}: ${access}`).toBe(`${scope}: ${allowed[scope] ?? 'none'}`);
    }
  });

  it.each(SNIPPETS.map((snippet) => [snippet.where, snippet] as const))('%s runs on a fresh repository (first run)', { timeout: 180_000 }, async (_where, snippet) => {
    const dir = mkdtempSync(join(tmpdir(), 'readme-snippet-'));
    const file = join(dir, 'workflow.yml');
    writeFileSync(file, snippet.text);
    // The example repository the READMEs speak of (examples/), with a document to generate.
    const repo = mkdtempSync(join(tmpdir(), 'readme-repo-'));
    cpSync(join(REPO_ROOT, 'examples'), repo, { recursive: true });
    appendFileSync(join(repo, 'compliance.yml'), `\n${GENERATE_ACCESS_CONTROL}`);
    const origin = makeOrigin(repo);
    const on = triggers(snippet.workflow);
    let ref = 'main';
    let event: { name: string; payload?: Record<string, unknown> };
    if ('pull_request' in on) {
      pushBranch(origin, 'feature', (checkout) => writeFileSync(join(checkout, 'policies/access-control.md'), '\nAccess rights are recertified every quarter.\n', { flag: 'a' }));
      event = pullRequestEvent(fake.addPullRequest('Update a policy'));
      ref = 'feature';
    } else if ('push' in on) event = { name: 'push', payload: { ref: 'refs/heads/main' } };
    else if ('workflow_dispatch' in on) event = { name: 'workflow_dispatch', payload: { inputs: {} } };
    else event = { name: 'schedule', payload: {} };
    const run = await runWorkflow({ file, origin, ref, event, github, caches: new CacheStore(), secrets: { COMPLIANCE_API_KEY: LIVE_KEY }, vars: { COMPLIANCE_BASE_URL: sandbox.baseUrl } });
    expect(run.conclusion, `${run.log}\n${run.summary}`).toBe('success');
    expect(run.annotations.filter((annotation) => annotation.kind === 'error')).toEqual([]);
  });
});
