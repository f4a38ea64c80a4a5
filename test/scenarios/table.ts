/**
 * The scenario table of issue 22's "Proof across surfaces": one row per way a repository meets the
 * review loop, with what every surface must show for it (the ledger delta of its own live key, the
 * verdict's status and pass, the library and GitHub writes). The suites in this folder drive each
 * row through each surface; a surface that cannot express a row says why here, never silently.
 *
 * Prices are the sandbox's live prices (GET /billing): a library ingest 400,000 tokens, a mapping
 * 250,000. The fixture is test/fixtures/policies under hipaa-security (93.8 %, 4 gaps).
 */
import { POLICY_FILES } from '../actions/harness.js';

export const INGEST_PRICE = 400_000;
export const MAP_PRICE = 250_000;
/** Every fixture policy ingested once, then one combined mapping. */
const SYNC_AND_MAP = POLICY_FILES.length * INGEST_PRICE + MAP_PRICE;

/** The PR template's default cap (vars.COMPLIANCE_MAX_TOKENS || '10000000'), and the too-small one of its row. */
export const TEMPLATE_CAP = '10000000';
const TOO_SMALL_CAP = '1000';
export const capOf = (row: Scenario) => (row.id === 'pull request under a too-small cap' ? TOO_SMALL_CAP : TEMPLATE_CAP);

export type Surface = 'cli' | 'bundle' | 'local-action' | 'mcp' | 'n8n';
export type Status = 'passed' | 'failed' | 'refused' | 'unchanged' | 'skipped';
export type ScenarioId =
  | 'push to the default branch'
  | 'same-repo pull request'
  | 'fork pull request'
  | 're-run of a pull request'
  | 'pull request that changes compliance.yml'
  | 'pull request under a too-small cap'
  | 'schedule with a waiver'
  | 'unchanged repository';

export interface Expected {
  /** Tokens drawn from the scenario's own live key by the run under test (GET /billing before and after). */
  ledgerDelta: number;
  status: Status;
  passed: boolean;
  /** Documents the run added to the key's library (a pull request: none, the library mirrors the default branch). */
  libraryWrites: number;
  /** GitHub writes: the comment on the run's own pull request, gap issues opened; nothing else is ever written. */
  github: { ownComment: boolean; issuesOpened: number };
  /** The step (or the command) fails: the CI check turns red. */
  stepFails: boolean;
}

/**
 * How a surface meets a row: it runs it (`runs`), it cannot express it (`cannot`: the reason), or it
 * runs it but disagrees with the table today (`disagrees`: the product bug, reported; `today` is
 * what it shows instead, asserted exactly, so the test fails the day the surface agrees and the
 * cell turns into `runs`).
 */
export type Cell = { runs: true } | { cannot: string } | { disagrees: string; today: Partial<Expected> };

export interface Scenario {
  id: ScenarioId;
  /** What the row proves, for the README. */
  proves: string;
  expected: Expected;
  surfaces: Record<Surface, Cell>;
}

const runs: Cell = { runs: true };

// Why a surface cannot express a row: one sentence each, shared by the rows they apply to.
const MCP_NO_EVENT = 'the MCP loop tools run for a person at an assistant, not for a CI event: there is no pull request, fork or schedule to honour';
const MCP_NO_SPEND_LOOP = 'the MCP loop tool (planReview) plans and prices a review; it never runs one, so it can only agree on the plan';
const N8N_NO_PULL_REQUEST = 'the n8n Review operations have no pull-request event (a workflow passes files, not a GitHub event)';

/**
 * What the CLI and the action bundles say beyond the row: the CLI prints its answer and writes no
 * pull-request comment (the comment is the action's rendering of the same verdict).
 */
export const RENDERS_PULL_REQUEST_COMMENT: Record<Surface, boolean> = { cli: false, bundle: true, 'local-action': true, mcp: false, n8n: false };

/** Fields a surface has no way to show, with why: left out of its comparison, never echoed back. */
export const NOT_SHOWN: Partial<Record<Surface, { fields: ReadonlyArray<'passed' | 'stepFails'>; why: string }>> = {
  mcp: { fields: ['passed', 'stepFails'], why: 'an MCP tool result has no CI step to fail, and the plan answers no gate' },
};

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'push to the default branch',
    proves: 'the library mirrors the default branch: a push syncs every new document and maps once, paying exactly the planned price, and writes nothing to GitHub',
    expected: { ledgerDelta: SYNC_AND_MAP, status: 'passed', passed: true, libraryWrites: POLICY_FILES.length, github: { ownComment: false, issuesOpened: 0 }, stepFails: false },
    surfaces: { cli: runs, bundle: runs, 'local-action': runs, mcp: { cannot: `${MCP_NO_SPEND_LOOP} (its plan's price is checked against this row's ledger delta)` }, n8n: runs },
  },
  {
    id: 'same-repo pull request',
    proves: 'a pull request maps its own text (one mapping), writes no library document and no issue, and its only GitHub write is its own comment',
    expected: { ledgerDelta: MAP_PRICE, status: 'passed', passed: true, libraryWrites: 0, github: { ownComment: true, issuesOpened: 0 }, stepFails: false },
    surfaces: { cli: runs, bundle: runs, 'local-action': runs, mcp: { cannot: MCP_NO_EVENT }, n8n: { cannot: N8N_NO_PULL_REQUEST } },
  },
  {
    id: 'fork pull request',
    proves: 'GitHub gives a fork no secrets: the check is not evaluated, so not passed (red, status skipped), and nothing is spent or written',
    expected: { ledgerDelta: 0, status: 'skipped', passed: false, libraryWrites: 0, github: { ownComment: false, issuesOpened: 0 }, stepFails: true },
    surfaces: {
      cli: runs,
      bundle: runs,
      'local-action': runs,
      mcp: { cannot: MCP_NO_EVENT },
      n8n: { cannot: N8N_NO_PULL_REQUEST },
    },
  },
  {
    id: 're-run of a pull request',
    proves: 'a re-run of the same pull request with the same framework and documents reuses its mapping: 0 tokens, the same verdict',
    expected: { ledgerDelta: 0, status: 'passed', passed: true, libraryWrites: 0, github: { ownComment: true, issuesOpened: 0 }, stepFails: false },
    surfaces: { cli: runs, bundle: runs, 'local-action': runs, mcp: { cannot: MCP_NO_EVENT }, n8n: { cannot: N8N_NO_PULL_REQUEST } },
  },
  {
    id: 'pull request that changes compliance.yml',
    proves: "a pull request is judged by the default branch's gate: lowering the threshold from 95 to 10, waiving gaps and relaxing failOn from new-gaps to coverage in its own compliance.yml cannot make it pass",
    expected: { ledgerDelta: MAP_PRICE, status: 'failed', passed: false, libraryWrites: 0, github: { ownComment: true, issuesOpened: 0 }, stepFails: true },
    surfaces: { cli: runs, bundle: runs, 'local-action': runs, mcp: { cannot: MCP_NO_EVENT }, n8n: { cannot: N8N_NO_PULL_REQUEST } },
  },
  {
    id: 'pull request under a too-small cap',
    proves: 'a cap is checked before anything is spent: a plan over max-tokens is refused loudly (status refused, red), 0 tokens, with the plan and the cap in the comment',
    expected: { ledgerDelta: 0, status: 'refused', passed: false, libraryWrites: 0, github: { ownComment: true, issuesOpened: 0 }, stepFails: true },
    surfaces: { cli: runs, bundle: runs, 'local-action': runs, mcp: runs, n8n: { cannot: N8N_NO_PULL_REQUEST } },
  },
  {
    id: 'schedule with a waiver',
    proves: 'a scheduled review syncs, maps and opens one issue per gap, except the waived gap: a waiver never opens an issue',
    expected: { ledgerDelta: SYNC_AND_MAP, status: 'passed', passed: true, libraryWrites: POLICY_FILES.length, github: { ownComment: false, issuesOpened: 3 }, stepFails: false },
    surfaces: {
      cli: runs,
      bundle: runs,
      'local-action': runs,
      mcp: { cannot: MCP_NO_EVENT },
      n8n: runs,
    },
  },
  {
    id: 'unchanged repository',
    proves: 'a pull request whose change git shows touches no document in scope nor compliance.yml maps nothing, calls nothing and spends nothing (status unchanged, no comment)',
    expected: { ledgerDelta: 0, status: 'unchanged', passed: true, libraryWrites: 0, github: { ownComment: false, issuesOpened: 0 }, stepFails: false },
    surfaces: { cli: runs, bundle: runs, 'local-action': runs, mcp: { cannot: MCP_NO_EVENT }, n8n: { cannot: N8N_NO_PULL_REQUEST } },
  },
];

/**
 * The gate fields a pull request's compliance.yml changes in the "changes compliance.yml" row
 * (world.ts stages each): the default branch's copy decides every one of them.
 */
export const BASE_BRANCH_GATE_FIELDS = ['threshold', 'waivers', 'failOn'] as const;

export function scenario(id: ScenarioId): Scenario {
  const found = SCENARIOS.find((entry) => entry.id === id);
  if (!found) throw new Error(`no scenario ${id}`);
  return found;
}

/** The rows a surface runs, with what it shows today where it disagrees. */
export function rowsFor(surface: Surface): Array<{ scenario: Scenario; disagreement: Extract<Cell, { disagrees: string }> | undefined }> {
  return SCENARIOS.flatMap((entry) => {
    const cell = entry.surfaces[surface];
    if ('cannot' in cell) return [];
    return [{ scenario: entry, disagreement: 'disagrees' in cell ? cell : undefined }];
  });
}

/** The GitHub writes a surface must show for a row: its own comment only where the surface renders one. */
export function expectedGitHub(entry: Scenario, surface: Surface): Expected['github'] {
  return { ownComment: entry.expected.github.ownComment && RENDERS_PULL_REQUEST_COMMENT[surface], issuesOpened: entry.expected.github.issuesOpened };
}
