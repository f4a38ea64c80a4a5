/**
 * Each action's outputs are exactly what its action.yml and actions/README.md document: the two
 * lists are equal, every output a bundle sets (run as the runner does, against the sandbox and the
 * fake GitHub) is declared, and across the runs below every declared output is set.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { GENERATE_ACCESS_CONTROL, GITHUB_TOKEN, HIPAA_CONFIG, makeWorkspace, onPullRequest, REPO_ROOT, runAction, type RunOptions } from './harness.js';
import { useActionServices } from './services.js';

const ACTIONS = ['call', 'gap-issues', 'generate', 'map', 'review', 'suggest', 'sync'];

const declared = (file: string): string[] => Object.keys(parse(readFileSync(join(REPO_ROOT, file), 'utf8')).outputs ?? {}).sort();

/** The backticked names of the "Outputs:" sentence of the action's README section (parenthesised notes left out). */
function readmeOutputs(name: string): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'actions', 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${name}\n`);
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const after = section.slice(section.indexOf('Outputs:') + 'Outputs:'.length);
  let flat = after;
  for (let previous = ''; previous !== flat; ) [previous, flat] = [flat, flat.replace(/\([^()]*\)/g, '')];
  const sentence = flat.split(/\.(?:\s|$)/)[0] ?? '';
  return [...sentence.matchAll(/`([a-z][a-z-]*)`/g)].map((match) => match[1] as string).sort();
}

describe('documented outputs', () => {
  it.each(ACTIONS)('%s: actions/README.md lists exactly the outputs of action.yml', (name) => {
    expect(readmeOutputs(name)).toEqual(declared(`actions/${name}/action.yml`));
  });

  it('the root action declares the inputs and outputs of actions/review, whose bundle it runs', () => {
    const root = parse(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8'));
    const review = parse(readFileSync(join(REPO_ROOT, 'actions/review/action.yml'), 'utf8'));
    expect(root.inputs).toEqual(review.inputs);
    expect(root.outputs).toEqual(review.outputs);
    expect(root.runs).toEqual({ using: 'node24', main: 'actions/review/dist/index.js' });
  });
});

describe('outputs set by the bundles', () => {
  const services = useActionServices();
  const connection = () => services.inputs();
  type Scenario = (workspace: string) => Omit<RunOptions, 'workspace'>;
  const noKey: Scenario = (workspace) => ({ inputs: { 'github-token': GITHUB_TOKEN }, event: onPullRequest(workspace, 7, { fork: true }) });
  const SCENARIOS: Record<string, Scenario[]> = {
    call: [
      () => ({ inputs: { ...connection(), operation: 'getBilling' } }),
      () => ({ inputs: { ...connection(), operation: 'ingestLibraryDocument', input: '{"title": "t", "content": "c", "category": "Policies"}', 'dry-run': 'true' } }),
      noKey,
    ],
    'gap-issues': [(workspace) => ({ inputs: { 'github-token': GITHUB_TOKEN, report: join(workspace, 'compliance-report', 'report.json') } })],
    generate: [() => ({ inputs: { ...connection(), 'dry-run': 'true' } }), noKey],
    map: [() => ({ inputs: connection() }), noKey],
    review: [() => ({ inputs: { ...connection(), 'dry-run': 'true', 'gap-issues': 'false' } }), noKey],
    suggest: [() => ({ inputs: { ...connection(), query: 'health data privacy' } }), noKey],
    sync: [() => ({ inputs: { ...connection(), 'dry-run': 'true' } }), noKey],
  };

  it.each(ACTIONS)('%s: every output set is declared, and every declared output is set by one of its runs', { timeout: 120_000 }, async (name) => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80, GENERATE_ACCESS_CONTROL));
    // gap-issues reads the report a map run writes.
    if (name === 'gap-issues') expect((await runAction('map', { workspace, inputs: connection() })).code).toBe(0);
    const set = new Set<string>();
    for (const scenario of SCENARIOS[name] ?? []) {
      const run = await runAction(name, { workspace, apiUrl: services.github.url, ...scenario(workspace) });
      const keys = Object.keys(run.outputs);
      expect(keys.filter((key) => !declared(`actions/${name}/action.yml`).includes(key)), `undeclared outputs of ${name}\n${run.stdout}`).toEqual([]);
      for (const key of keys) set.add(key);
    }
    expect([...set].sort()).toEqual(declared(`actions/${name}/action.yml`));
  });
});
