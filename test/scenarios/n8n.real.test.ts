/**
 * The scenario table's rows n8n can express (no pull-request event there: the table says so),
 * through the Review operations in a real n8n with the packed package installed as users install
 * it: Sync Documents and Map Policy Set on the push row; with Plan Gap Issues on the schedule row.
 * Each row runs on its own live sandbox key; the GitHub writes are the issues Plan Gap Issues tells
 * a tracker node to create (n8n's GitHub node carries them out, not ours).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { POLICY_FILES, REPO_ROOT } from '../actions/harness.js';
import { buildPackage, installN8n, N8nHarness, outputOf } from '../n8n/real/harness.js';
import { COMPLIANCE } from '../n8n/real/workflows.js';
import { rowsFor, TEMPLATE_CAP, type Scenario } from './table.js';
import { expectedFor, liveKey, observe, stage, startWorld, waivedOnSchedule, type Observed, type World } from './world.js';

let world: World;
let n8n: N8nHarness;
beforeAll(async () => {
  const bin = installN8n();
  buildPackage();
  world = await startWorld(['n8n']);
  n8n = await N8nHarness.create(bin);
  const rows = rowsFor('n8n').map(({ scenario: row }) => row);
  await n8n.importCredentials(rows.map((row, index) => ({ id: credentialId(index), name: `Compliance (${row.id})`, type: 'complianceApi', data: { apiKey: liveKey(row.id, 'n8n'), baseUrl: world.sandbox.baseUrl, authHeader: 'bearer' } })));
  await n8n.importWorkflows(rows.map((row, index) => reviewWorkflow(row, index)));
}, 30 * 60_000);
afterAll(async () => {
  n8n?.close();
  await world?.close();
});

const credentialId = (index: number) => `credScenario${String(index).padStart(4, '0')}`;
const workflowId = (index: number) => `wfScenarioRow${String(index).padStart(3, '0')}`;

/** The fixture policies as n8n items ({path, content}), as a Read Files or Git node would give them. */
function documentsCode(): string {
  const items = POLICY_FILES.map((file) => ({ json: { path: `policies/${file}`, content: readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'policies', file), 'utf8') } }));
  return `return ${JSON.stringify(items)};`;
}

/** The row's waivers as Map Policy Set's Waivers parameter (compliance.yml's, on the schedule row). */
function waiversOf(row: Scenario) {
  const controls = row.id === 'schedule with a waiver' ? waivedOnSchedule(world) : [];
  return controls.map((control) => ({ control, reason: 'accepted', owner: 'ciso', expires: '2030-01-01' }));
}

/**
 * Documents → Sync Documents (the library mirrors the set, capped as the templates cap) and
 * Documents → Map Policy Set (gate at 80 %, the row's waivers, capped) → Plan Gap Issues where the row opens issues.
 */
function reviewWorkflow(row: Scenario, index: number) {
  const credentials = { complianceApi: { id: credentialId(index), name: `Compliance (${row.id})` } };
  const at = (column: number) => [column * 240, 0];
  const nodes: unknown[] = [
    { id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: at(0), parameters: {} },
    { id: 'documents', name: 'Documents', type: 'n8n-nodes-base.code', typeVersion: 2, position: at(1), parameters: { jsCode: documentsCode() } },
    { id: 'sync', name: 'Sync Documents', type: COMPLIANCE, typeVersion: 1, position: at(2), credentials, parameters: { resource: 'review', operation: 'syncDocuments', documentSet: 'acme/policies', options: { maxTokens: Number(TEMPLATE_CAP) } } },
    { id: 'map', name: 'Map Policy Set', type: COMPLIANCE, typeVersion: 1, position: [480, 240], credentials, parameters: { resource: 'review', operation: 'mapPolicySet', framework: 'hipaa-security', threshold: 80, waivers: JSON.stringify(waiversOf(row)), maxTokens: Number(TEMPLATE_CAP) } },
  ];
  const connections: Record<string, unknown> = {
    Start: { main: [[{ node: 'Documents', type: 'main', index: 0 }]] },
    Documents: { main: [[{ node: 'Sync Documents', type: 'main', index: 0 }, { node: 'Map Policy Set', type: 'main', index: 0 }]] },
  };
  if (row.expected.github.issuesOpened > 0) {
    nodes.push({ id: 'plan', name: 'Plan Gap Issues', type: COMPLIANCE, typeVersion: 1, position: [720, 240], credentials, parameters: { resource: 'review', operation: 'planGapIssues', existingIssues: '[]' } });
    connections['Map Policy Set'] = { main: [[{ node: 'Plan Gap Issues', type: 'main', index: 0 }]] };
  }
  return { id: workflowId(index), name: `Scenario: ${row.id}`, active: false, isArchived: false, settings: { executionOrder: 'v1' }, nodes, connections, pinData: {} };
}

async function n8nRun(row: Scenario, index: number): Promise<Observed> {
  const staged = await stage(world, row.id, liveKey(row.id, 'n8n'));
  let issuesPlanned = 0;
  try {
    const seen = await observe(world, row, 'n8n', staged, async () => {
      const run = await n8n.execute(workflowId(index));
      const verdict = outputOf(run, 'Map Policy Set')[0]?.json ?? {};
      if (row.expected.github.issuesOpened > 0) issuesPlanned = outputOf(run, 'Plan Gap Issues').filter((item) => item.json.action === 'create').length;
      return { status: verdict.status as string | undefined, passed: verdict.passed as boolean | undefined, stepFails: run.exitCode !== 0 || run.execution.status !== 'success' };
    });
    // n8n writes no issue itself: the issues the plan tells a tracker node to create are its GitHub writes.
    return { ...seen, github: { ...seen.github, issuesOpened: issuesPlanned } };
  } finally {
    await staged.github.close();
  }
}

describe('on n8n', () => {
  rowsFor('n8n').forEach(({ scenario: row, disagreement }, index) => {
    it(`${row.id} (n8n)${disagreement ? `: disagrees today, ${disagreement.disagrees}` : ''}`, { timeout: 600_000 }, async () => {
      expect(await n8nRun(row, index)).toEqual({ ...expectedFor(row, 'n8n'), ...disagreement?.today });
    });
  });
});
