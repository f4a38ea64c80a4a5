/**
 * Issue 22's proof across surfaces: every row of the scenario table (table.ts) driven through the
 * built CLI (a process), the action bundles run runner-style (GitHub event payload, fake GitHub)
 * and the MCP loop tools (the SDK's client over stdio), each against its own live sandbox key,
 * asserting the same ledger delta, verdict status, library writes and GitHub writes. A row a
 * surface cannot express is listed in the table with the reason; a row a surface disagrees with
 * today asserts exactly what it shows instead, named in the test title.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GITHUB_TOKEN, REPO_ROOT, REPOSITORY, runAction } from '../actions/harness.js';
import { buildCli, cli, type Run } from '../cli/helpers.js';
import { connectionEnv, stdioClient } from '../mcp/helpers.js';
import { actionRow } from './actionRows.js';
import { capOf, rowsFor, scenario, SCENARIOS, TEMPLATE_CAP, type Scenario, type Surface } from './table.js';
import { balanceOf, expectedFor, liveKey, observe, stage, startWorld, type Observed, type World } from './world.js';

let world: World;
beforeAll(async () => {
  buildCli();
  world = await startWorld(['bundle', 'cli', 'mcp']);
}, 120_000);
afterAll(async () => {
  await world?.close();
});

// --- The action bundles, runner-style -----------------------------------------------------------

const bundleRun = (row: Scenario) => actionRow(world, row, 'bundle', async (name, options) => {
  const run = await runAction(name, options);
  return { code: run.code, outputs: run.outputs, log: run.stdout + run.stderr };
});

// --- The built CLI, as a CI step would run it ------------------------------------------------------

async function cliRun(row: Scenario): Promise<Observed> {
  const staged = await stage(world, row.id, liveKey(row.id, 'cli'));
  try {
    const runnerDir = mkdtempSync(join(tmpdir(), 'scenario-cli-'));
    const eventPath = join(runnerDir, 'event.json');
    writeFileSync(eventPath, JSON.stringify(staged.event.payload));
    const env: Record<string, string> = {
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: staged.event.name,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: REPOSITORY,
      GITHUB_API_URL: staged.github.url,
      GITHUB_TOKEN,
      HOME: runnerDir,
      // Were the CLI to start its embedded sandbox, its state would stay in this run's folder.
      COMPLIANCE_DATA_DIR: join(runnerDir, 'data'),
      // A fork gets neither the key nor (here) the address: nothing may stand in for the service.
      ...(staged.hasKey ? { COMPLIANCE_BASE_URL: world.sandbox.baseUrl, COMPLIANCE_API_KEY: liveKey(row.id, 'cli') } : {}),
    };
    const run = (args: string[]) => cli([...args, '--json'], { cwd: staged.workspace, env });
    const verdictOf = (runs: Run[]) => {
      const last = runs.at(-1) as Run;
      return { status: last.json?.verdict?.status as string | undefined, passed: last.json?.verdict?.passed as boolean | undefined, stepFails: runs.some((each) => each.code !== 0) };
    };
    // The PR template's check as CLI flags: the default branch's report from the cache (its gate is read from git).
    const prMap = () => run(['map', '--baseline', staged.pullRequestFiles!.baseline, '--max-tokens', capOf(row)]);
    switch (row.id) {
      case 'push to the default branch':
        return await observe(world, row, 'cli', staged, async () => verdictOf([await run(['review', '--max-tokens', TEMPLATE_CAP])]));
      case 'schedule with a waiver':
        return await observe(world, row, 'cli', staged, async () => {
          const review = await run(['review', '--max-tokens', TEMPLATE_CAP, '--report-dir', 'compliance-report']);
          const gaps = await run(['gaps', '--report', 'compliance-report/report.json', '--github']);
          // The gate's answer is the review's; `gaps` only applies the issue plan.
          return { ...verdictOf([review]), stepFails: review.code !== 0 || gaps.code !== 0 };
        });
      case 're-run of a pull request': {
        const first = await prMap();
        if (first.code !== 0) throw new Error(`the first run of the pull request failed: ${first.stdout}${first.stderr}`);
        return await observe(world, row, 'cli', staged, async () => verdictOf([await prMap()]));
      }
      default:
        return await observe(world, row, 'cli', staged, async () => verdictOf([await prMap()]));
    }
  } finally {
    await staged.github.close();
  }
}

// --- The MCP loop tools, through the SDK's client over stdio --------------------------------------

/** An MCP tool result has no step to fail and the plan answer no gate: those fields are not compared. */
async function mcpRun(row: Scenario): Promise<Observed> {
  const key = liveKey(row.id, 'mcp');
  const staged = await stage(world, row.id, key);
  const { client } = await stdioClient(join(process.cwd(), 'dist/cli/compliance.cjs'), ['--max-tokens', capOf(row)], connectionEnv(world.sandbox, key));
  try {
    return await observe(world, row, 'mcp', staged, async () => {
      const result = await client.callTool({ name: 'planReview', arguments: { directory: staged.workspace } });
      const plan = (result.structuredContent as { result: { status: string; budget: { allowed: boolean } } }).result;
      // planReview is a dry run (never refused itself): the row's status is what it says a real run would meet.
      return { status: plan.status === 'dry-run' && !plan.budget.allowed ? 'refused' : plan.status, passed: undefined, stepFails: undefined };
    });
  } finally {
    await client.close();
    await staged.github.close();
  }
}

const SURFACES: Array<[Surface, (row: Scenario) => Promise<Observed>]> = [
  ['bundle', bundleRun],
  ['cli', cliRun],
  ['mcp', mcpRun],
];

// Concurrent: each row × surface has its own key, workspace and fake GitHub; the world is read-only.
describe.concurrent.each(SURFACES)('on %s', (surface, runRow) => {
  for (const { scenario: row, disagreement } of rowsFor(surface)) {
    // A disagreement is a known product bug: what the surface shows today is asserted exactly.
    it(`${row.id} (${surface})${disagreement ? `: disagrees today, ${disagreement.disagrees}` : ''}`, { timeout: 180_000 }, async ({ expect }) => {
      expect(await runRow(row)).toEqual({ ...expectedFor(row, surface), ...disagreement?.today });
    });
  }
});

describe('the MCP plan prices what the other surfaces spend', () => {
  it('planReview of the push row plans its ledger delta, spending nothing', { timeout: 120_000 }, async () => {
    const row = scenario('push to the default branch');
    const key = liveKey(row.id, 'mcp');
    const staged = await stage(world, row.id, key);
    const { client } = await stdioClient(join(process.cwd(), 'dist/cli/compliance.cjs'), ['--max-tokens', TEMPLATE_CAP], connectionEnv(world.sandbox, key));
    try {
      const before = await balanceOf(world.sandbox, key);
      const result = await client.callTool({ name: 'planReview', arguments: { directory: staged.workspace } });
      expect(result.structuredContent).toMatchObject({ result: { status: 'dry-run', budget: { allowed: true, plannedTokens: row.expected.ledgerDelta } } });
      expect(await balanceOf(world.sandbox, key)).toBe(before);
    } finally {
      await client.close();
      await staged.github.close();
    }
  });
});

describe('the table as documented', () => {
  it('actions/README.md lists every row of the scenario table', () => {
    const readme = readFileSync(join(REPO_ROOT, 'actions', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Proof across surfaces'));
    expect(SCENARIOS.map((row) => row.id).filter((id) => !section.includes(`| ${id} |`))).toEqual([]);
  });
});
