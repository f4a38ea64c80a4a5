/**
 * Issue 34's scenario table: the gate fails closed. One row per way a change met a check that did
 * not evaluate it, or judged it by rules it wrote itself (gateRows.ts), and one per event of the
 * table in review/events.ts (gateEventRows.ts), each run on the built action bundles (runner-style:
 * real event payloads, a fake GitHub) or the built CLI (in a GitHub or GitLab job), against its own
 * live sandbox key. Every row asserts each step's verdict and exit code, the writes to GitHub and to
 * the library, and the tokens the key was charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../cli/helpers.js';
import { CASE_ROWS } from './gateRows.js';
import { EVENT_ROWS } from './gateEventRows.js';
import { facts, newGitHub, startGateWorld, type GateWorld } from './gateWorld.js';

const ROWS = [...CASE_ROWS, ...EVENT_ROWS];

let world: GateWorld;
beforeAll(async () => {
  buildCli();
  world = await startGateWorld(ROWS.length);
}, 120_000);
afterAll(async () => {
  await world?.close();
});

describe.concurrent("issue 34's scenario table: the gate fails closed", () => {
  ROWS.forEach((row, index) => {
    it(row.id, { timeout: 180_000 }, async ({ expect }) => {
      const github = await newGitHub();
      try {
        expect(await row.run(world, index, github)).toEqual(row.expected);
      } finally {
        await github.close();
      }
    });
  });
});

describe('what the rows measured beside their outcome', () => {
  it('the rename: the old list named only the new path; evaluated, coverage 82.3 % with 3 new gaps', () => {
    expect(facts.get('a policy moved out of scope (rename)')).toEqual({ nameOnly: 'archive/business-continuity.md', coverage: '82.3', newGaps: '3' });
  });
  it('the non-ASCII name: the old list quoted it, so no glob matched', () => {
    expect(facts.get('a non-ASCII file name')).toEqual({ nameOnly: '"policies/continuit\\303\\251.md"' });
  });
  it('the committed store: ignored with a warning, the merge request judged on what it says (80.8 %)', () => {
    expect(facts.get('a mapping store the change committed (GitLab, CLI)')).toEqual({ coverage: 80.8, warned: true });
  });
  it('no key in a GitLab merge request pipeline: the fix names masked, not protected', () => {
    expect((facts.get('GitLab merge request without a key (protected variable)') as { hint: string }).hint).toContain('mark the key masked, not protected');
  });
  it('the misspelt framework: listed in the outputs, not passed in report.json, the summary headed not evaluated', () => {
    expect(facts.get('a framework that cannot be mapped (misspelt)')).toEqual({ reportPassed: false, notEvaluated: ['hippa'], listed: ['hipaa-security', 'hippa (not evaluated)'], headline: '# Compliance review: ❌ not evaluated' });
  });
  it('the front matter: no printed line starts a workflow command', () => {
    expect(facts.get('workflow commands in front matter')).toEqual({ injected: [] });
  });
});

