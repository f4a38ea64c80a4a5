/**
 * review/node's adapters over a real temporary directory: compliance.yml, the drift manifest and a
 * baseline read from disk, the CI context from a webhook payload file, the mapping store read from
 * a cache, the report files written and the history read back, and library warnings routed to the
 * surface's printer. (Reading git, and a tracked mapping store, are in test/gate/gitBase.test.ts.)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReviewReport, evaluateGate, MANIFEST_PATH } from '../../review/index.js';
import {
  currentCiContext,
  currentEventPolicy,
  loadBaseline,
  publishedPath,
  publishReport,
  readConfigFileText,
  readHistory,
  readManifest,
  readMappingStoreText,
  routeProcessWarnings,
  writeManifest,
} from '../../review/node/index.js';
import { report } from './fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'node-adapters-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const CONFIG = 'documents:\n  - paths: ["policies/*.md"]\nframeworks:\n  - { framework: nist-csf-2, threshold: 80 }\n';

function reviewReport(generatedAt: string) {
  const gate = evaluateGate(report({ A: 'covered', B: 'missing' }), { framework: 'nist-csf-2', threshold: 0, waivers: [], today: '2026-06-01', failOn: 'coverage' });
  return buildReviewReport([gate], { generatedAt });
}

describe('compliance.yml, the drift manifest and a baseline from disk', () => {
  it('reads compliance.yml with its text; a file merely containing .yml in its name is not read', async () => {
    mkdirSync(join(root, 'conf'));
    writeFileSync(join(root, 'conf/compliance.YML'), CONFIG);
    writeFileSync(join(root, 'conf/compliance.yml.bak'), CONFIG);
    const read = await readConfigFileText(root, 'conf/compliance.YML');
    expect(read.text).toBe(CONFIG);
    expect(read.config.frameworks.map((entry) => entry.framework)).toEqual(['nist-csf-2']);
    await expect(readConfigFileText(root, 'conf/compliance.yml.bak')).rejects.toThrow(/^conf\/compliance\.yml\.bak: is not a YAML file/);
  });

  it('the manifest is empty until written, then read back as written', async () => {
    const dir = mkdtempSync(join(root, 'manifest-'));
    expect(await readManifest(dir)).toEqual({ schemaVersion: 1, documents: [] });
    const entry = { output: 'docs/policy.md', framework: 'nist-csf-2', type: 'policy', parameters: {}, frameworkUpdatedAt: null, generatedAt: '2026-06-01T00:00:00Z', files: [] };
    const path = await writeManifest(dir, { schemaVersion: 1, documents: [entry] });
    expect(path).toBe(join(dir, MANIFEST_PATH));
    expect(await readManifest(dir)).toEqual({ schemaVersion: 1, documents: [entry] });
  });

  it('a baseline may be a raw mapping report, and its errors call it the baseline', async () => {
    const raw = join(root, 'raw-baseline.json');
    writeFileSync(raw, JSON.stringify({ framework: { slug: 'nist-csf-2' }, gaps: [{ controlId: 'PR.AT-01' }] }));
    expect(await loadBaseline(raw)).toEqual(new Set(['nist-csf-2/PR.AT-01']));
    await expect(loadBaseline(join(root, 'absent.json'))).rejects.toMatchObject({ message: `baseline ${join(root, 'absent.json')}: no such file` });
  });
});

describe('the CI context of this process', () => {
  const eventFile = (payload: string) => {
    const path = join(mkdtempSync(join(root, 'event-')), 'event.json');
    writeFileSync(path, payload);
    return path;
  };
  const base = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_REPOSITORY: 'acme/policies' };
  const payload = JSON.stringify({ pull_request: { number: 7, base: { sha: 'b'.repeat(40) } }, repository: { full_name: 'acme/policies', default_branch: 'main' } });

  it('in GitHub Actions the webhook payload names the pull request and its base', () => {
    const context = currentCiContext({ ...base, GITHUB_ACTIONS: 'true', GITHUB_EVENT_PATH: eventFile(payload) });
    expect(context.event).toMatchObject({ kind: 'pull_request', pullRequest: 7 });
    expect(context.base).toEqual({ commit: 'b'.repeat(40) });
  });

  it('no payload file, an unreadable one or one that is not JSON names no pull request; outside Actions the file is not read', () => {
    for (const path of [undefined, '', join(root, 'no-such-event.json'), eventFile('{not json')]) {
      const context = currentCiContext({ ...base, GITHUB_ACTIONS: 'true', ...(path === undefined ? {} : { GITHUB_EVENT_PATH: path }) });
      expect(context.event.pullRequest).toBeUndefined();
      expect(context.base).toBeUndefined();
    }
    expect(currentCiContext({ ...base, GITHUB_EVENT_PATH: eventFile(payload) }).base).toBeUndefined();
  });

  it('an environment other than process.env is read afresh; process.env is read once', () => {
    const env: NodeJS.ProcessEnv = { ...base, GITHUB_ACTIONS: 'true', GITHUB_EVENT_PATH: eventFile(payload) };
    expect(currentCiContext(env).event.kind).toBe('pull_request');
    env.GITHUB_EVENT_NAME = 'push';
    expect(currentCiContext(env).event.kind).not.toBe('pull_request');

    const first = currentCiContext();
    const saved = process.env.GITHUB_REPOSITORY;
    process.env.GITHUB_REPOSITORY = first.repository === 'acme/changed' ? 'acme/other' : 'acme/changed';
    try {
      expect(currentCiContext()).toBe(first);
    } finally {
      if (saved === undefined) delete process.env.GITHUB_REPOSITORY;
      else process.env.GITHUB_REPOSITORY = saved;
    }
  });

  it('the event policy is the context event\'s', () => {
    const policy = currentEventPolicy({ ...base, GITHUB_ACTIONS: 'true', GITHUB_EVENT_PATH: eventFile(payload) });
    expect(policy).toMatchObject({ event: { kind: 'pull_request', pullRequest: 7 }, mayWriteLibrary: false, gateFromBaseBranch: true });
  });
});

describe('the mapping store restored into a checkout that is not a git repository', () => {
  it('absent: nothing read, nothing ignored; present and untracked: its text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mapping-store-'));
    try {
      expect(await readMappingStoreText(dir, 'store.json')).toEqual({ text: undefined, ignored: undefined });
      writeFileSync(join(dir, 'store.json'), '{"mappings":[]}');
      expect(await readMappingStoreText(dir, 'store.json')).toEqual({ text: '{"mappings":[]}', ignored: undefined });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('report files written and the history read back', () => {
  it('writes each format into the directory, relative to the root, and names the path per format', async () => {
    const published = await publishReport({ client: undefined, report: reviewReport('2026-06-01T00:00:00Z'), root, dir: 'out/reports', formats: ['md', 'json'] });
    expect(published.dir).toBe(join(root, 'out/reports'));
    expect(published.failures).toEqual([]);
    expect(published.files).toEqual([
      { format: 'md', path: join(root, 'out/reports/report.md') },
      { format: 'json', path: join(root, 'out/reports/report.json') },
    ]);
    expect(JSON.parse(readFileSync(join(root, 'out/reports/report.json'), 'utf8')).generatedAt).toBe('2026-06-01T00:00:00Z');
    expect(publishedPath(published, 'json')).toBe(join(root, 'out/reports/report.json'));
    expect(publishedPath(published, 'html')).toBeUndefined();
    expect(publishedPath(undefined, 'json')).toBeUndefined();
    const absolute = await publishReport({ client: undefined, report: reviewReport('2026-06-01T00:00:00Z'), root, dir: join(root, 'abs'), formats: ['json'] });
    expect(absolute.dir).toBe(join(root, 'abs'));
  });

  it('reads every *.json report of the directory in name order, from the root when relative', async () => {
    const dir = join(root, 'history');
    mkdirSync(dir);
    writeFileSync(join(dir, '2.json'), JSON.stringify(reviewReport('2026-06-02T00:00:00Z')));
    writeFileSync(join(dir, '1.json'), JSON.stringify(reviewReport('2026-06-01T00:00:00Z')));
    writeFileSync(join(dir, 'notes.txt'), 'not a report');
    const points = await readHistory('history', '--history', root);
    expect(points.map((point) => point.generatedAt)).toEqual(['2026-06-01T00:00:00Z', '2026-06-02T00:00:00Z']);
    expect(points[0]?.coverage['nist-csf-2']).toBeTypeOf('number');
    expect(await readHistory(dir, '--history')).toEqual(points);
    writeFileSync(join(dir, '3.json'), '{"hello":1}');
    await expect(readHistory(dir, '--history')).rejects.toMatchObject({ message: expect.stringMatching(/^--history file .*3\.json: not a compliance review report/) });
  });

  it('a missing directory or a file in its place is an error naming the field and the fix', async () => {
    const hint = expect.stringContaining('earlier report.json files');
    await expect(readHistory('no-such-dir', 'history', root)).rejects.toMatchObject({ code: 'invalid_report', message: 'history no-such-dir: no such directory', hint });
    writeFileSync(join(root, 'plain-file'), 'x');
    await expect(readHistory('plain-file', 'history', root)).rejects.toMatchObject({ message: 'history plain-file: is not a directory', hint });
    await expect(readHistory('bad\0name', 'history', root)).rejects.toMatchObject({ code: 'invalid_report', message: expect.stringMatching(/^history bad\0name: The argument 'path' must be .+ without null bytes/) });
  });
});

describe('library warnings', () => {
  it('go to the surface\'s printer, escaped to one line, and no longer to Node\'s own', async () => {
    const before = process.listeners('warning');
    try {
      const printed = new Promise<string>((resolve) => routeProcessWarnings(resolve));
      expect(process.listeners('warning')).toHaveLength(1);
      process.emitWarning('line one\n::error::two', 'YAMLWarning');
      expect(await printed).toBe('YAMLWarning: line one\\n:\u200d:error:\u200d:two');
    } finally {
      process.removeAllListeners('warning');
      for (const listener of before) process.on('warning', listener);
    }
  });
});
