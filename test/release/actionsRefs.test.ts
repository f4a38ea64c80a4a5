/**
 * Every `uses:` line of ours, anywhere in the repository's tracked files, resolves: it names the
 * repository written once in package.json, an action folder that exists (or the root action), and
 * the major tag the release workflow moves. Placeholders such as `<owner>/<repo>` fail here.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { actionNames } from '../../scripts/build-actions.mjs';
import { REPO_ROOT } from '../actions/harness.js';
import { ACTIONS_REF, OWN_REPOSITORY } from '../templates/workflowRunner.js';

const trackedText = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((file) => /\.(ya?ml|md)$/.test(file) && !file.startsWith('test/templates/github/third-party/') && existsSync(join(REPO_ROOT, file)));

/** Every `uses:` target in a file, with its line number. */
function usesLines(file: string): Array<{ line: number; target: string }> {
  return readFileSync(join(REPO_ROOT, file), 'utf8')
    .split('\n')
    .flatMap((text, index) => [...text.matchAll(/\buses:\s*([^\s`'"]+)/g)].map((match) => ({ line: index + 1, target: match[1] as string })));
}

/** A target that claims to be one of ours: our repository, a placeholder, or an `…/actions/<name>` of three segments. */
const looksOurs = (target: string) => target.startsWith(`${OWN_REPOSITORY}`) || /<owner>|<repo>/.test(target) || /^[^/]+\/[^/]+\/actions\/[^/@]+@/.test(target);

describe('our uses: lines', () => {
  it('derive owner/repo from package.json and the ref from the release workflow', () => {
    expect(OWN_REPOSITORY).toBe('compliance-automation/compliance-automation');
    expect(ACTIONS_REF).toMatch(/^v\d+$/);
  });

  const ours = trackedText.flatMap((file) => usesLines(file).filter(({ target }) => looksOurs(target)).map((use) => ({ file, ...use })));

  it('are found where users read them (templates, READMEs)', () => {
    const files = new Set(ours.map((use) => use.file));
    for (const file of ['templates/github/compliance-pr-check.yml', 'templates/github/compliance-scheduled-review.yml', 'templates/github/compliance-balance-watch.yml', 'actions/README.md']) expect(files, file).toContain(file);
  });

  it('each names this repository, an existing action and the moved major tag', () => {
    const wrong = ours.flatMap(({ file, line, target }) => {
      const match = new RegExp(`^${OWN_REPOSITORY.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/actions/([a-z][a-z-]*|<name>))?@(.+)$`).exec(target);
      if (!match) return [`${file}:${line} ${target}: not ${OWN_REPOSITORY}[/actions/<name>]@${ACTIONS_REF}`];
      if (match[2] !== ACTIONS_REF) return [`${file}:${line} ${target}: ref ${match[2]} is not ${ACTIONS_REF}, the major tag the release workflow moves`];
      const folder = match[1] === undefined ? '.' : match[1] === '<name>' ? undefined : join('actions', match[1]);
      if (folder !== undefined && !existsSync(join(REPO_ROOT, folder, 'action.yml'))) return [`${file}:${line} ${target}: no ${folder}/action.yml`];
      return [];
    });
    expect(wrong).toEqual([]);
  });

  it('the release workflow moves that tag, and only on a release of that major', () => {
    const release = parse(readFileSync(join(REPO_ROOT, '.github', 'workflows', 'release.yml'), 'utf8'));
    expect(release.on).toEqual({ push: { tags: ['v*.*.*'] } });
    const move = release.jobs['move-major-tag'];
    expect(move.needs).toBe('publish');
    const script = move.steps.map((step: { run?: string }) => step.run ?? '').join('\n');
    expect(script).toContain('git tag --force "$ACTIONS_MAJOR" "$GITHUB_SHA"');
    expect(script).toContain('git push --force origin "refs/tags/$ACTIONS_MAJOR"');
    const guard = release.jobs.build.steps.map((step: { run?: string }) => step.run ?? '').join('\n');
    expect(guard).toContain('"$ACTIONS_MAJOR".*) ;;');
  });

  it('creates the GitHub Release the Marketplace listing is published from, with both tarballs', () => {
    const release = parse(readFileSync(join(REPO_ROOT, '.github', 'workflows', 'release.yml'), 'utf8'));
    const job = release.jobs['github-release'];
    expect(job.needs).toBe('move-major-tag');
    expect(job.permissions).toEqual({ contents: 'write' });
    const script = job.steps.map((step: { run?: string }) => step.run ?? '').join('\n');
    expect(script).toMatch(/^gh release create "\$TAG" dist\/packages\/\*\.tgz .*--verify-tag/m);
  });
});

describe('who the artifacts say made them', () => {
  const author = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).author as { name: string; email: string; url: string };
  const actionFiles = ['action.yml', ...actionNames().map((name) => `actions/${name}/action.yml`)];

  it('is the project, written once in the root package.json, with no placeholder address', () => {
    expect(author.name).toBe(OWN_REPOSITORY.split('/')[0]);
    expect(author.email).toMatch(/@users\.noreply\.github\.com$/);
    expect(author.url).toBe(`https://github.com/${OWN_REPOSITORY.split('/')[0]}`);
  });

  it('every action.yml names that author', () => {
    const named = Object.fromEntries(actionFiles.map((file) => [file, parse(readFileSync(join(REPO_ROOT, file), 'utf8')).author]));
    expect(named).toEqual(Object.fromEntries(actionFiles.map((file) => [file, author.name])));
  });
});

describe('the root action (the Marketplace listing)', () => {
  const root = parse(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8'));
  const review = parse(readFileSync(join(REPO_ROOT, 'actions', 'review', 'action.yml'), 'utf8'));

  it('is the review loop: same inputs and outputs, same bundle', () => {
    expect(root.inputs).toEqual(review.inputs);
    expect(root.outputs).toEqual(review.outputs);
    expect(root.runs).toEqual({ using: 'node24', main: 'actions/review/dist/index.js' });
    expect(existsSync(join(REPO_ROOT, root.runs.main))).toBe(true);
  });

  it('has what a listing needs: a name unlike the folder actions, a short description, branding', () => {
    expect(root.name).toBeTruthy();
    expect(root.name).not.toBe(review.name);
    expect(root.description.length).toBeGreaterThan(0);
    expect(root.description.length).toBeLessThanOrEqual(125);
    expect(root.branding).toMatchObject({ icon: expect.any(String), color: expect.any(String) });
  });
});
