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
import { branchCommit, changesSince, fileAtCommit, filesAtCommit, gitHead, isTracked, presentCommit, readBaseCommit, readMappingStoreText } from '../../review/node/index.js';

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

  it('an untracked file whose name is not UTF-8 is unclassified, so everything counts as changed', async () => {
    const { root, base } = repository(() => undefined, { config: CONFIG });
    writeFileSync(Buffer.from(`${join(root, 'policies')}/bad-\xff.md`, 'latin1'), 'written by a step\n');
    const changes = await changesSince(root, base);
    expect(changes?.paths).toEqual([]);
    expect(changes?.unclassified).toEqual(['a file name that is not UTF-8 (706f6c69636965732f6261642dff2e6d64)']);
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

describe('review/node/git: reading git itself', () => {
  it('HEAD, a present commit and a branch resolve to their commit; what git cannot resolve, or an option-like name, to nothing', async () => {
    const { root, base } = repository(() => undefined, { config: CONFIG });
    const head = git(root, 'rev-parse', 'HEAD');
    expect(await gitHead(root)).toBe(head);
    expect(await gitHead(tmpdir())).toBeUndefined();
    expect(await presentCommit(root, base)).toBe(base);
    expect(await presentCommit(root, 'HEAD')).toBeUndefined();
    expect(await presentCommit(root, 'f'.repeat(40))).toBeUndefined();
    expect(await branchCommit(root, 'main')).toBe(base);
    git(root, 'update-ref', 'refs/remotes/origin/main', head);
    expect(await branchCommit(root, 'main')).toBe(head);
    for (const name of ['--all', 'main~1', 'ma in', 'main^', 'a:b', 'ma?n', 'ma*n', 'ma[n', 'ma\\n']) expect(await branchCommit(root, name), name).toBeUndefined();
    expect(await branchCommit(root, 'no-such-branch')).toBeUndefined();
    git(root, 'branch', 'release-', base);
    expect(await branchCommit(root, 'release-')).toBe(base);
  });

  it('a file and the file list at a commit, relative to the root; undefined for what the commit does not hold', async () => {
    const { root, base } = repository((dir) => writeFileSync(join(dir, 'policies', 'new.md'), 'new\n'), { config: CONFIG, subdir: 'compliance' });
    expect(await fileAtCommit(root, base, 'policies/continuité.md')).toBe('# continuité.md\n\nText of continuité.md.\n');
    expect(await fileAtCommit(root, base, 'policies/new.md')).toBeUndefined();
    expect(await filesAtCommit(root, base)).toEqual(['compliance.yml', 'policies/access.md', 'policies/backup.md', 'policies/continuité.md', 'policies/vendor.md']);
    expect(await filesAtCommit(root, 'f'.repeat(40))).toBeUndefined();
  });

  it('a file far larger than a pipe holds is read whole', async () => {
    const text = `# Handbook\n\n${'Access is reviewed quarterly. '.repeat(40_000)}\n`;
    const { root, base } = repository(() => undefined, { config: CONFIG });
    writeFileSync(join(root, 'handbook.md'), text);
    git(root, 'add', 'handbook.md');
    git(root, 'commit', '-q', '-m', 'handbook');
    expect(await fileAtCommit(root, git(root, 'rev-parse', 'HEAD'), 'handbook.md')).toBe(text);
    expect(await fileAtCommit(root, base, 'handbook.md')).toBeUndefined();
  });

  it("git runs in the caller's environment (GIT_DIR set by the job names the repository)", async () => {
    const { root, base } = repository(() => undefined, { config: CONFIG });
    const elsewhere = mkdtempSync(join(tmpdir(), 'gate-git-elsewhere-'));
    const before = process.env.GIT_DIR;
    process.env.GIT_DIR = join(root, '.git');
    try {
      expect(await presentCommit(elsewhere, base)).toBe(base);
    } finally {
      if (before === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = before;
    }
    expect(await presentCommit(elsewhere, base)).toBeUndefined();
  });

  it('a mapping store committed in the checkout is ignored (the change could have written it); an untracked one is read', async () => {
    const { root } = repository((dir) => writeFileSync(join(dir, 'store.json'), '{"committed":true}'), { config: CONFIG });
    expect(await isTracked(root, 'store.json')).toBe(true);
    expect(await readMappingStoreText(root, 'store.json')).toEqual({ text: undefined, ignored: 'store.json is committed in the checkout, so the change could have written it: ignored, the mappings are made afresh' });
    writeFileSync(join(root, 'cache.json'), '{"cached":true}');
    expect(await isTracked(root, 'cache.json')).toBe(false);
    expect(await readMappingStoreText(root, 'cache.json')).toEqual({ text: '{"cached":true}', ignored: undefined });
  });
});

describe('readBaseCommit: what the base commit holds', () => {
  it("names the base's compliance.yml and its commit in a configuration error", async () => {
    const { root, base } = repository(() => undefined, { config: 'documents: []\n' });
    const context = pullRequestContext(base);
    const error = await readBaseCommit(root, 'compliance.yml', context, eventPolicy(context.event)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ issues: [expect.objectContaining({ file: `compliance.yml at ${base.slice(0, 12)}`, path: 'documents' })] });
  });

  it('the documents are those any group of the base config selects', async () => {
    const config = 'documents:\n  - paths: ["policies/access.md"]\n  - paths: ["policies/vendor.md"]\nframeworks: []\n';
    const { root, base } = repository(() => undefined, { config });
    const context = pullRequestContext(base);
    const read = await readBaseCommit(root, 'compliance.yml', context, eventPolicy(context.event));
    expect((await read.documents()).map((file) => file.path)).toEqual(['policies/access.md', 'policies/vendor.md']);
  });
});

describe('readBaseCommit: the fix named when there is no base', () => {
  it('an event that names no base commit: not evaluated, naming the event and the pull_request trigger', async () => {
    const { root } = repository(() => undefined, { config: CONFIG });
    const push = readCiContext({ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'push' }, {});
    await expect(readBaseCommit(root, 'compliance.yml', push, eventPolicy(push.event))).rejects.toMatchObject({
      code: 'not_evaluated',
      message: 'not evaluated, so not passed: the push event names no base commit to read the gate from. A pull request is judged by the gate of its base commit\'s compliance.yml, never by its own.',
      hint: expect.stringContaining('Run the check on pull_request'),
    });
    const unnamed = { ...push, event: { kind: 'pull_request' as const } };
    await expect(readBaseCommit(root, 'compliance.yml', unnamed, eventPolicy(unnamed.event))).rejects.toMatchObject({ message: expect.stringContaining('the CI event names no base commit') });
  });

  it('each forge is told how to fetch the base it lacks; the message shows the commit short', async () => {
    const { root } = repository(() => undefined, { config: CONFIG });
    const missing = 'e'.repeat(40);
    const github = pullRequestContext(missing);
    await expect(readBaseCommit(root, 'compliance.yml', github, eventPolicy(github.event))).rejects.toMatchObject({
      message: expect.stringContaining(`the base commit ${'e'.repeat(12)} is not in this clone. A pull request`),
      hint: `Check out with the full history (actions/checkout with fetch-depth: 0, as templates/github/compliance-pr-check.yml does), so ${missing} is in the clone.`,
    });
    const gitlab = readCiContext({ GITLAB_CI: 'true', CI_PIPELINE_SOURCE: 'merge_request_event', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'release' }, undefined);
    await expect(readBaseCommit(root, 'compliance.yml', gitlab, eventPolicy(gitlab.event))).rejects.toMatchObject({
      message: expect.stringContaining('A merge request is judged'),
      hint: 'Fetch it before the check (git fetch origin, with GIT_DEPTH: "0" on the job, as templates/gitlab/compliance.gitlab-ci.yml does), so origin/release is in the clone.',
    });
    const elsewhere = { ...github, forge: undefined };
    await expect(readBaseCommit(root, 'compliance.yml', elsewhere, eventPolicy(elsewhere.event))).rejects.toMatchObject({ hint: `Fetch ${missing} into the clone first.` });
  });

  it('a base without compliance.yml names the file and the fix; the documents are only those compliance.yml lists', async () => {
    const { root, base } = repository((dir) => writeFileSync(join(dir, 'notes.md'), 'not a policy\n'), { config: CONFIG });
    const context = pullRequestContext(base);
    await expect(readBaseCommit(root, 'gate.yml', context, eventPolicy(context.event))).rejects.toMatchObject({
      message: expect.stringContaining(`the base commit ${base.slice(0, 12)} has no gate.yml, so it sets no gate`),
      hint: 'Merge gate.yml into the default branch on its own first; every later pull request is then judged by it.',
    });
    writeFileSync(join(root, 'compliance.yml'), CONFIG.replace('policies/*.md', '*.md'));
    const read = await readBaseCommit(root, 'compliance.yml', context, eventPolicy(context.event));
    expect(read.describe).toBe(`the base commit ${base.slice(0, 12)}`);
    expect(read.config.text).toBe(CONFIG);
    const documents = await read.documents();
    expect(documents.map((file) => file.path)).toEqual(['policies/access.md', 'policies/backup.md', 'policies/continuité.md', 'policies/vendor.md']);
    expect(documents[0]?.content).toBe('# access.md\n\nText of access.md.\n');
  });
});
