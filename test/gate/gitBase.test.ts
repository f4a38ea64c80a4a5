/**
 * review/node/git and baseCommit against real git repositories: what a change touched (renames,
 * copies, deletions, type changes and any file name, from git objects, never a list a workflow
 * wrote), the gate from the base commit's compliance.yml, and the base a shallow clone lacks.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventPolicy, readCiContext, ReviewError } from '../../review/index.js';
import { changesSince, readBaseCommit } from '../../review/node/index.js';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();
const CONFIG = 'documents:\n  - paths: ["policies/*.md"]\nframeworks:\n  - { framework: hipaa-security, threshold: 80 }\n';

/** A repository whose main has the base; HEAD is a branch with `change` applied and committed. Returns the root and the base commit. */
function repository(change: (root: string) => void, options: { config?: string | undefined; subdir?: string } = {}): { root: string; base: string } {
  const top = mkdtempSync(join(tmpdir(), 'gate-git-'));
  git(top, 'init', '-q', '-b', 'main');
  const root = options.subdir ? join(top, options.subdir) : top;
  mkdirSync(join(root, 'policies'), { recursive: true });
  for (const name of ['access.md', 'backup.md', 'continuité.md', 'vendor.md']) writeFileSync(join(root, 'policies', name), `# ${name}\n\nText of ${name}.\n`);
  if (options.config !== undefined) writeFileSync(join(root, 'compliance.yml'), options.config);
  git(top, 'add', '-A');
  git(top, 'commit', '-q', '-m', 'base');
  const base = git(top, 'rev-parse', 'HEAD');
  git(top, 'checkout', '-q', '-b', 'change');
  change(root);
  git(top, 'add', '-A');
  git(top, 'commit', '-q', '--allow-empty', '-m', 'change');
  return { root, base };
}

const pullRequestContext = (base: string) => readCiContext({ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request', GITHUB_REPOSITORY: 'acme/policies' }, { pull_request: { number: 3, base: { sha: base } }, repository: { full_name: 'acme/policies', default_branch: 'main' } });

describe('changesSince: what a change touched, from git objects', () => {
  it('a move out of scope lists its old path, a non-ASCII name is read as written, a deletion, a copy and a type change are listed', async () => {
    const { root, base } = repository((dir) => {
      mkdirSync(join(dir, 'archive'));
      renameSync(join(dir, 'policies', 'access.md'), join(dir, 'archive', 'access.md'));
      writeFileSync(join(dir, 'policies', 'continuité.md'), '# continuité\n\nChanged.\n');
      rmSync(join(dir, 'policies', 'backup.md'));
      cpSync(join(dir, 'policies', 'vendor.md'), join(dir, 'policies', 'vendor-copy.md'));
      rmSync(join(dir, 'policies', 'vendor.md'));
      symlinkSync('vendor-copy.md', join(dir, 'policies', 'vendor.md'));
    }, { config: CONFIG });
    const changes = await changesSince(root, base);
    expect(changes?.unclassified).toEqual([]);
    expect([...(changes?.paths ?? [])].sort()).toEqual(['archive/access.md', 'policies/access.md', 'policies/backup.md', 'policies/continuité.md', 'policies/vendor-copy.md', 'policies/vendor.md']);
  });

  it('what is mapped is the checkout as it stands: staged, unstaged and untracked files count too', async () => {
    const { root, base } = repository(() => undefined, { config: CONFIG });
    writeFileSync(join(root, 'policies', 'access.md'), 'edited after checkout\n');
    writeFileSync(join(root, 'policies', 'new.md'), 'written by a step\n');
    expect([...((await changesSince(root, base))?.paths ?? [])].sort()).toEqual(['policies/access.md', 'policies/new.md']);
  });

  it('paths are relative to compliance.yml\'s folder when it is a subfolder of the repository', async () => {
    const { root, base } = repository((dir) => writeFileSync(join(dir, 'policies', 'access.md'), 'changed\n'), { config: CONFIG, subdir: 'compliance' });
    expect((await changesSince(root, base))?.paths).toEqual(['policies/access.md']);
  });

  it('a base the clone does not hold gives no list (the caller counts everything as changed)', async () => {
    const { root } = repository(() => undefined, { config: CONFIG });
    expect(await changesSince(root, 'f'.repeat(40))).toBeUndefined();
  });
});

describe('readBaseCommit: the gate from the base commit in git', () => {
  it("reads the base's compliance.yml, not the checkout's, and its documents", async () => {
    const { root, base } = repository((dir) => writeFileSync(join(dir, 'compliance.yml'), CONFIG.replace('threshold: 80', 'threshold: 1')), { config: CONFIG });
    const context = pullRequestContext(base);
    const read = await readBaseCommit(root, 'compliance.yml', context, eventPolicy(context.event));
    expect(read.commit).toBe(base);
    expect(read.config.config.frameworks[0]?.threshold).toBe(80);
    expect(read.changes?.paths).toEqual(['compliance.yml']);
    expect((await read.documents()).map((file) => file.path).sort()).toEqual(['policies/access.md', 'policies/backup.md', 'policies/continuité.md', 'policies/vendor.md']);
  });

  it('a shallow clone without the base commit: not evaluated, naming fetch-depth: 0', async () => {
    const { root, base } = repository((dir) => writeFileSync(join(dir, 'policies', 'access.md'), 'changed\n'), { config: CONFIG });
    const shallow = mkdtempSync(join(tmpdir(), 'gate-shallow-'));
    git(shallow, 'clone', '-q', '--depth', '1', '--branch', 'change', `file://${root}`, 'clone');
    const clone = join(shallow, 'clone');
    const context = pullRequestContext(base);
    const error = await readBaseCommit(clone, 'compliance.yml', context, eventPolicy(context.event)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ReviewError);
    expect(error).toMatchObject({ code: 'not_evaluated', message: expect.stringMatching(/^not evaluated, so not passed: the base commit [0-9a-f]{12} is not in this clone/), hint: expect.stringContaining('fetch-depth: 0') });
  });

  it('a base commit without compliance.yml sets no gate: not evaluated, never judged by the change\'s own', async () => {
    const { root, base } = repository((dir) => writeFileSync(join(dir, 'compliance.yml'), CONFIG), {});
    const context = pullRequestContext(base);
    await expect(readBaseCommit(root, 'compliance.yml', context, eventPolicy(context.event))).rejects.toMatchObject({ code: 'not_evaluated', message: expect.stringContaining('has no compliance.yml, so it sets no gate') });
  });

  it('an unlisted event reads the default branch from the clone; GitLab names GIT_DEPTH', async () => {
    const { root } = repository((dir) => writeFileSync(join(dir, 'policies', 'access.md'), 'changed\n'), { config: CONFIG });
    const comment = readCiContext({ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'issue_comment' }, { repository: { default_branch: 'main' }, issue: { number: 3, pull_request: {} } });
    const read = await readBaseCommit(root, 'compliance.yml', comment, eventPolicy(comment.event));
    expect(read.describe).toBe('the branch main');
    expect(read.changes?.paths).toEqual(['policies/access.md']);
    const gitlab = readCiContext({ GITLAB_CI: 'true', CI_PIPELINE_SOURCE: 'merge_request_event', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'release' }, undefined);
    await expect(readBaseCommit(root, 'compliance.yml', gitlab, eventPolicy(gitlab.event))).rejects.toMatchObject({ code: 'not_evaluated', message: expect.stringContaining('the branch release is not in this clone'), hint: expect.stringContaining('git fetch origin') });
  });
});
