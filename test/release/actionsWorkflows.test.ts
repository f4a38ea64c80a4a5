/**
 * The repository's own workflows (.github/workflows): actionlint 1.7 finds nothing, every
 * third-party action is pinned to a full commit SHA with its version as a comment (one of the SHAs
 * whose action.yml is kept in test/templates/github/third-party), nothing is granted by default and
 * each job holds exactly the permissions it uses, and no `run:` script holds a `${{ }}` expression.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../actions/harness.js';
import { actionlint, formatFinding } from '../templates/actionlint.js';
import { THIRD_PARTY, THIRD_PARTY_DIR } from '../templates/workflowRunner.js';

const DIR = join(REPO_ROOT, '.github', 'workflows');
const WORKFLOWS = readdirSync(DIR).filter((file) => /\.ya?ml$/.test(file)).sort();

/** Exactly what each job may hold. */
const EXPECTED_PERMISSIONS: Record<string, Record<string, Record<string, string>>> = {
  'ci.yml': { test: { contents: 'read' } },
  'check-dist.yml': { 'check-dist': { contents: 'read' } },
  'release.yml': { build: { contents: 'read' }, publish: { contents: 'read', 'id-token': 'write' }, 'move-major-tag': { contents: 'write' }, 'github-release': { contents: 'write' } },
};

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}

describe('the linter itself', () => {
  it('reports an untrusted expression in a script and a bad cron (so a clean result means something)', async () => {
    const broken = 'on:\n  schedule:\n    - cron: "1 2 3"\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ github.event.head_commit.message }}"\n';
    const findings = await actionlint(broken, 'broken.yml');
    expect(findings.map((finding) => finding.kind)).toEqual(expect.arrayContaining(['events', 'expression']));
  });
});

describe('.github/workflows', () => {
  it('holds ci, check-dist and release', () => {
    expect(WORKFLOWS).toEqual(['check-dist.yml', 'ci.yml', 'release.yml']);
  });

  describe.each(WORKFLOWS)('%s', (file) => {
    const source = readFileSync(join(DIR, file), 'utf8');
    const workflow = parse(source);
    const jobs = Object.entries(workflow.jobs as Record<string, { permissions?: unknown; steps: Step[] }>);

    it('passes actionlint', async () => {
      expect((await actionlint(source, file)).map(formatFinding)).toEqual([]);
    });

    it('grants nothing by default and each job exactly what it uses', () => {
      expect(workflow.permissions).toEqual({});
      expect(Object.fromEntries(jobs.map(([name, job]) => [name, job.permissions]))).toEqual(EXPECTED_PERMISSIONS[file]);
    });

    it('pins every third-party action to a known full SHA with its version as a comment', () => {
      const lines = source.split('\n').filter((line) => /^\s*(- )?uses:/.test(line));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        const match = /uses:\s*(\S+)\s+# (v\d+\.\d+\.\d+)$/.exec(line);
        expect(match, line).not.toBeNull();
        const pin = THIRD_PARTY.exec(match![1] as string);
        expect(pin, line).not.toBeNull();
        expect(existsSync(join(THIRD_PARTY_DIR, `${(pin![1] as string).replace('/', '+')}@${pin![2]}.yml`)), `${line}: its action.yml is not kept in test/templates/github/third-party`).toBe(true);
      }
    });

    it('passes values to scripts through env, never as ${{ }} inside run:', () => {
      for (const [, job] of jobs) for (const step of job.steps) expect(step.run ?? '', step.run).not.toContain('${{');
    });
  });

  it('ci runs the README test command on the Node of .nvmrc after npm ci and the empty-cache lock check', () => {
    const steps = parse(readFileSync(join(DIR, 'ci.yml'), 'utf8')).jobs.test.steps as Step[];
    expect(steps.find((step) => step.uses?.startsWith('actions/setup-node@'))?.with).toEqual({ 'node-version-file': '.nvmrc' });
    expect(readFileSync(join(REPO_ROOT, '.nvmrc'), 'utf8')).toMatch(/^24\.\d+\.\d+\n$/);
    const scripts = steps.map((step) => step.run ?? '').join('\n');
    expect(scripts).toMatch(/npm ci[^\n]*\nbash scripts\/check-locks.sh/);
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toContain('npm test ');
    expect(scripts.split('\n')).toContain('npm test');
  });

  it('check-dist rebuilds the action bundles and fails on any difference', () => {
    const scripts = (parse(readFileSync(join(DIR, 'check-dist.yml'), 'utf8')).jobs['check-dist'].steps as Step[]).map((step) => step.run ?? '').join('\n');
    expect(scripts).toContain('node scripts/build.mjs actions');
    expect(scripts).toMatch(/git status --porcelain -- actions\)" \]; then[\s\S]*exit 1/);
  });

  it('release tests, packs, and publishes both tarballs with provenance', () => {
    const release = parse(readFileSync(join(DIR, 'release.yml'), 'utf8'));
    const build = (release.jobs.build.steps as Step[]).map((step) => step.run ?? '').join('\n');
    expect(build).toContain('npm test');
    expect(build).toContain('npm run pack -- --no-build');
    const publish = (release.jobs.publish.steps as Step[]).map((step) => step.run ?? '').join('\n');
    expect(publish).toContain('npm publish "$tarball" --provenance --access public');
    expect(publish).toContain('tarballs=(dist/packages/*.tgz)');
    expect(release.jobs.publish.needs).toBe('build');
  });
});
