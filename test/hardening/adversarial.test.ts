/**
 * The standing adversarial suite: every attack of the last red-team rounds (issues 25 and 37 and
 * the one before them), so none can come back unseen. Attacks cheap enough to replay here run against the
 * real code (the escape functions, the config parser, the repo reader, the sandbox over loopback);
 * the heavy ones (a flood, a soak, bombs, every action on a hostile repository) run in their own
 * suites, and this one fails if any of those tests is removed or renamed.
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { characterCount, libraryContentProblem } from '../../api/schemas/common.js';
import { ConfigError, logText, neutralise } from '../../review/index.js';
import { parseConfig } from '../../review/config.js';
import { readRepoFiles, RepoFileError } from '../../review/node/files.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { liveMentions, MENTION_FORMS } from '../review/forgeMentions.js';
import { client, envelope, LIVE_KEY, policyText, sandbox } from '../sandbox/helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Names and texts that would be workflow commands, hidden log lines or mentions if printed as they are. */
const COMMAND_LINES = [
  'policies/x\n::error::FILENAME-INJECTION.md',
  '::add-mask::hidden',
  '  ::stop-commands::token',
  'a\r::warning::cr',
  'a\u2028::notice::separator',
  '##[error]v1 command',
  'esc\u001b[2K::debug::ansi',
];

let box: RunningSandbox;
beforeAll(async () => {
  box = await sandbox();
});
afterAll(async () => {
  await box?.close();
});

describe('replayed here', () => {
  it('issue 25.1: no file name, title or text prints as a workflow command', () => {
    for (const value of COMMAND_LINES) {
      const printed = logText(value);
      expect(printed.split(/\r\n|\r|\n|\u2028|\u2029/), JSON.stringify(value)).toHaveLength(1);
      expect(printed.trimStart().startsWith('::'), JSON.stringify(value)).toBe(false);
      expect(printed, JSON.stringify(value)).not.toContain('##[');
      expect(printed, JSON.stringify(value)).not.toContain('\u001b');
    }
  });

  it('issues 25.4 and 37.4: no mention form (entities, numeric references, fullwidth, Markdown, HTML) reaches a GitHub or GitLab body live', () => {
    for (const text of MENTION_FORMS) {
      expect(liveMentions(text), text).not.toEqual([]);
      expect(liveMentions(neutralise(text)), text).toEqual([]);
    }
  });

  it('issues 25.6, 25.7 and 37.5: blank documents (no letter or digit of any script) are refused uncharged; characters are code points, the client lenient', async () => {
    const call = client(box, LIVE_KEY);
    const balance = (await call('GET', '/billing')).body.balanceTokens;
    for (const content of [' '.repeat(300), '\u200B'.repeat(300), '\u2800'.repeat(300), '\u0301'.repeat(300), '\u{1D159}'.repeat(200)]) {
      envelope(await call('POST', '/library/documents', { body: { title: 'Blank', content } }), 400, 'empty_document');
      envelope(await call('POST', '/documents/map', { body: { framework: 'hipaa-security', content } }), 400, 'missing_content');
    }
    envelope(await call('POST', '/library/documents', { body: { title: 'Astral', content: '𝐀'.repeat(150) } }), 400, 'content_too_short');
    expect((await call('GET', '/billing')).body.balanceTokens).toBe(balance);
    expect(characterCount('𝐀'.repeat(300_000))).toBe(300_000);
    expect(libraryContentProblem('𝐀'.repeat(150))).toBeUndefined();
    expect(libraryContentProblem('𝐀'.repeat(300_000))).toBeUndefined();
  });

  it('issue 25.5: deleting a document with a pending job fails the job with its true reason', async () => {
    const clockless = await sandbox({ jobSeconds: 3_600 });
    try {
      const pending = client(clockless, LIVE_KEY);
      const ingest = await pending('POST', '/library/documents', { body: { title: 'Pending', content: policyText('adversarial pending') } });
      expect((await pending('DELETE', `/library/documents/${ingest.body.documentId}`)).status).toBe(200);
      expect((await pending('GET', `/jobs/${ingest.body.jobId}`)).body).toMatchObject({ status: 'failed', error: { code: 'document_deleted' } });
    } finally {
      await clockless.close();
    }
  });

  it('last round: a YAML alias bomb and a framework listed twice are configuration errors', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefghi'.split('').map((name, i) => `${name}: &${name} [${Array(10).fill(`*${'abcdefghi'[i]}`).join(', ')}]`), 'documents: *i', ''].join('\n');
    expect(() => parseConfig(bomb)).toThrow(ConfigError);
    const twice = 'documents:\n  - name: policies\n    paths: ["policies/*.md"]\nframeworks:\n  - framework: hipaa-security\n    threshold: 50\n  - framework: HIPAA-Security\n    threshold: 60\n';
    expect(() => parseConfig(twice)).toThrow(/already listed at frameworks\[0\]/);
  });

  it('last round: a symlink out of the repository is not read', async () => {
    const root = mkdtempSync(join(tmpdir(), 'adversarial-repo-'));
    const outside = mkdtempSync(join(tmpdir(), 'adversarial-outside-'));
    writeFileSync(join(outside, 'secret.md'), 'not yours');
    mkdirSync(join(root, 'policies'));
    symlinkSync(join(outside, 'secret.md'), join(root, 'policies', 'escape.md'));
    await expect(readRepoFiles(root, ['policies/escape.md'])).rejects.toBeInstanceOf(RepoFileError);
  });
});

/** Heavy attacks, each replayed by its own suite: [file, test title]. */
const STANDING: Array<[attack: string, file: string, title: string]> = [
  ['issue 25.1: every action on a repository of hostile names and texts', 'test/actions/hostileRepo.test.ts', 'prints no workflow command it did not mean and sends no mention to GitHub'],
  ['issue 25.2: one key flooding the mapping pool', 'test/sandbox/fairness.test.ts', 'serve a second key next, however many tasks the first key queued'],
  ['issue 25.2: one key flooding the upload readers', 'test/sandbox/fairness.test.ts', 'refuse a key over its own queue, not the keys it would crowd out'],
  ['issue 25.2: the flooding key\u2019s admitted mappings bounded', 'test/sandbox/fairness.test.ts', 'holds at most'],
  ['issue 25.3: MCP sessions opened and abandoned', 'test/mcp/httpLimits.test.ts', 'caps sessions: a new one beyond the cap closes the least recently used'],
  ['issue 25.3: idle MCP sessions', 'test/mcp/httpLimits.test.ts', 'closes a session idle longer than the limit; an active one stays'],
  ['issue 25.3: large MCP bodies at once', 'test/mcp/httpLimits.test.ts', 'refuses a body over the limit at once, and bodies over the in-flight cap with 503'],
  ['issue 25.5: refund once on a deleted document', 'test/sandbox/library.test.ts', 'fails the job as document_deleted (not internal_error), refunds it once and logs it'],
  ['last round: upload bombs', 'test/sandbox/uploadAttack.test.ts', 'are each refused with a 4xx naming the limit'],
  ['last round: nested archives', 'test/sandbox/uploadAttack.test.ts', 'does not open archives nested inside a document'],
  ['last round: symlinked output directories', 'test/cli/repoFiles.test.ts', 'never writes through a symlinked directory anywhere on the way, nor outside the root'],
  ['last round: symlink named in compliance.yml', 'test/hardening/badInputCliActions.test.ts', 'symlink pointing outside the repo, named in compliance.yml'],
  ['last round: a framework named twice by different names', 'test/cli/commands.test.ts', 'is the same framework as frameworks[0]'],
  ['last round: malformed API requests get the envelope', 'test/hardening/security.test.ts', 'answers every malformed input with the envelope only'],
  ['issue 37.1: the test clock moved by 1e13 s, and every other extreme', 'test/hardening/hostileRequests.test.ts', 'the test clock: 1e13 s, 1e12 s and every other out-of-range value are 400 and move nothing'],
  ['issue 37.1: after every hostile request, every operation still answers', 'test/hardening/hostileRequests.test.ts', 'after all of them, every operation of the table answers a valid key through the real client'],
  ['issue 37.2: a stranger\u2019s bad keys from a shared address', 'test/hardening/hostileRequests.test.ts', 'its further bad keys are refused, a valid key is served'],
  ['issue 37.2: the block\u2019s time', 'test/sandbox/limits.test.ts', 'refuses further bad keys from an address after repeated ones, until the block ends'],
  ['issue 37.3: one key holding every worker on 2 cores', 'test/sandbox/fairness.test.ts', 'have two workers at least, one key holding all but one'],
  ['issue 37.3: heavy work keeping the event loop from the CPU', 'test/sandbox/fairness.test.ts', 'thread to the lowest priority and replace its worker after it'],
  ['issue 37.3: memory kept after a flood', 'test/sandbox/fairness.test.ts', 'end idle workers, and start a fresh one for the next task'],
  ['issue 37.3: memory kept after a flood', 'test/sandbox/fairness.test.ts', 'keeps no mapping text in the jobs table'],
  ['issue 37.4: mentions in every body the product writes', 'test/review/mentions.test.ts', 'pings nobody'],
  ['issue 37.4: mentions sent to GitHub by every action', 'test/actions/hostileRepo.test.ts', 'sends no mention to GitHub'],
  ['issue 37.4: mentions in the GitLab merge-request note', 'test/cli/hostileRepo.test.ts', 'report.md is the body GitLab\'s merge-request note posts'],
  ['issue 37.5: blank documents in the review loop\u2019s mapping', 'test/review/blankDocuments.test.ts', 'are refused before anything is sent'],
  ['issue 37.5: blank documents through the n8n node', 'test/hardening/badInputN8n.test.ts', 'ingest of 300 Braille blanks'],
  ['issue 37.6: __proto__, constructor and prototype keys', 'test/hardening/hostileRequests.test.ts', 'answered 400 or ignored in every JSON body, 400 in every query, never 500'],
  ['issue 37.8: stalled headers', 'test/sandbox/connectionLimits.test.ts', 'closes a connection whose headers never finish'],
  ['issue 37.8: no bytes at all', 'test/sandbox/connectionLimits.test.ts', 'closes a connection that sends no bytes at all'],
  ['issue 37.8: a short body', 'test/sandbox/connectionLimits.test.ts', 'closes a connection whose body stops short'],
  ['issue 37.8: an idle connection', 'test/sandbox/connectionLimits.test.ts', 'closes the connection once it is idle past the idle limit'],
  ['issue 37.9: planReview on /proc/self', 'test/hardening/planReviewConfinement.test.ts', 'status named as the configuration, nor show any of it'],
];

describe('replayed by their own suites', () => {
  it.each(STANDING)('%s (%s)', (_attack, file, title) => {
    expect(readFileSync(join(ROOT, file), 'utf8')).toContain(title);
  });
});
