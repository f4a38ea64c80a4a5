/**
 * `init` then `review` (issue 24: the starter failed its own gate with 400 lines and no next step):
 * the failed review ends with one "Next:" line, and following it (the threshold it names) makes
 * the next review pass.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { buildCli, cli } from './helpers.js';

beforeAll(() => buildCli(), 120_000);

it('the first review after init says in one line what to do next, and doing it passes', async () => {
  const repo = mkdtempSync(join(tmpdir(), 'init-review-'));
  expect((await cli(['init'], { cwd: repo })).code).toBe(0);
  // One embedded sandbox kept between the two reviews, as a user without a key has it.
  const env = { COMPLIANCE_DATA_DIR: join(repo, '.data') };
  const first = await cli(['review'], { cwd: repo, env });
  expect(first.code, first.stderr).toBe(1);
  const lines = first.stdout.trimEnd().split('\n');
  const next = lines.at(-1)!;
  expect(next).toMatch(/^Next: add what the gaps above say is missing to your documents and review again, or set .+'s threshold in compliance\.yml from 70% to \d+% for now/);
  expect(lines.filter((line) => line.startsWith('Next:'))).toHaveLength(1);

  const [, from, to] = /from (\d+)% to (\d+)%/.exec(next)!;
  const config = readFileSync(join(repo, 'compliance.yml'), 'utf8');
  expect(config).toContain(`threshold: ${from}`);
  writeFileSync(join(repo, 'compliance.yml'), config.replace(`threshold: ${from}`, `threshold: ${to}`));
  const second = await cli(['review'], { cwd: repo, env });
  expect(second.code, second.stdout.split('\n').slice(-5).join('\n')).toBe(0);
  expect(second.stdout).toContain('Review passed.');
  expect(second.stdout).not.toContain('Next:');
}, 180_000);
