/**
 * The Compliance node in the real n8n editor (2.40.7), driven in headless Chromium (Debian
 * `chromium`, through playwright-core) the way a user works: sign in, open a workflow, open the node,
 * pick a framework and a library document from the lists (resource locators, searched), "Execute
 * step", read the output panel; and Compliance Tool nodes left as added (only the operation picked)
 * show Query and Document "Defined automatically by the model" and are saved without them (Ctrl+S,
 * read back over REST: what aiAgent.real.test.ts runs). The owner, the credential (against the
 * sandbox on loopback) and the workflow are set up over n8n's REST API first, as in
 * credentialTest.real.test.ts. Screenshots go to test-results/screenshots/ (test artifacts); with
 * COMPLIANCE_UPDATE_DOCS_SCREENSHOTS=1 the ones nodes/README.md shows are copied to nodes/docs/.
 * Without Chromium it is skipped (test/systemPackages.ts says so once per run), except in CI (CI=true),
 * where that fails: .ci/run installs it. COMPLIANCE_SKIP_REAL_N8N=1 skips it too.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';
import { BACKUP } from '../../templates/n8n/review-loop.fixtures.js';
import { buildPackage, installN8n, N8nHarness, REPO } from './harness.js';
import { LIBRARY_TEXT } from './workflows.js';
import { chromiumPath, skipReason } from '../../systemPackages.js';

const CHROMIUM = chromiumPath();

const KEY = 'csk_sandbox_n8n_editor_suite_001';
const OWNER = { email: 'owner@example.test', firstName: 'Owner', lastName: 'Test', password: 'EditorTest1234' };
const TITLE = 'Quarterly access review procedure';
const SHOTS = join(REPO, 'test-results/screenshots');
/** Screenshots nodes/README.md shows ("In the editor"), copied there on request. */
const DOCS_SHOTS = ['picker-slug.png', 'picker-documentId.png', 'output-library-document.png'];

describe.skipIf(Boolean(skipReason('editor')))('the Compliance node in the real n8n editor (headless Chromium)', () => {
  let sandbox: RunningSandbox;
  let n8n: N8nHarness;
  let server: Awaited<ReturnType<N8nHarness['start']>>;
  let browser: Browser;
  let page: Page;
  let editor: string;
  let workflowId: string;
  let toolWorkflowId: string;
  let documentId: string;
  let cookie = '';
  const browserId = randomUUID();
  const timings: Record<string, number> = {};

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: { data?: Record<string, unknown>; message?: string } }> {
    const response = await fetch(`${editor}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'browser-id': browserId, ...(cookie ? { cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const auth = response.headers.getSetCookie().find((line) => line.startsWith('n8n-auth='));
    if (auth) cookie = auth.split(';')[0]!;
    const text = await response.text();
    return { status: response.status, json: text ? (JSON.parse(text) as { data?: Record<string, unknown> }) : {} };
  }

  async function shot(name: string, target: Page | Locator = page): Promise<void> {
    await target.screenshot({ path: join(SHOTS, name) });
  }

  /** Opens a node's panel (NDV) from the canvas by its name. */
  async function openNode(name: string): Promise<Locator> {
    await page.locator('[data-test-id="canvas-node"]').filter({ hasText: name }).first().dblclick();
    const ndv = page.locator('[data-test-id="ndv"], .ndv-wrapper, [role="dialog"]').filter({ has: page.locator('[data-test-id="output-panel"]') }).first();
    await ndv.waitFor({ timeout: 30_000 });
    return ndv;
  }

  /** "Execute step" in the open panel; returns the output panel's JSON view text. */
  async function executeStep(ndv: Locator): Promise<string> {
    await ndv.locator('[data-test-id="node-execute-button"]').first().click();
    const output = ndv.locator('[data-test-id="output-panel"]');
    await output.locator('[data-test-id="radio-button-json"]').first().click({ timeout: 60_000 });
    const json = output.locator('[data-test-id="ndv-data-container"]');
    await json.waitFor({ timeout: 30_000 });
    return (await json.innerText()).replace(/\s+/g, ' ');
  }

  /**
   * A resource locator's "From List": opens the list (filled by the node's listSearch method from
   * the service), types `search` into its search box, waits until every entry offered matches
   * `entry`, and clicks the first.
   */
  async function pickFromList(ndv: Locator, parameter: string, search: string, entry: string | RegExp): Promise<string[]> {
    await ndv.locator(`[data-test-id="resource-locator-${parameter}"] [data-test-id="rlc-input-container"]`).first().click();
    // The list opens in a popover outside the panel (n8n's modal layer).
    const items = page.locator('[data-test-id="rlc-item"]').filter({ visible: true });
    await items.first().waitFor({ timeout: 60_000 });
    const searchBox = page.locator('[data-test-id="rlc-search"]').filter({ visible: true }).first();
    await (await searchBox.evaluate((element) => element.tagName === 'INPUT') ? searchBox : searchBox.locator('input').first()).fill(search);
    // The search is sent to the service after a pause: wait until the list has narrowed to it.
    const matches = (text: string) => (typeof entry === 'string' ? text.includes(entry) : entry.test(text));
    await expect.poll(async () => { const texts = await items.allInnerTexts(); return texts.length > 0 && texts.every(matches); }, { timeout: 30_000 }).toBe(true);
    const offered = await items.allInnerTexts();
    const item = items.filter({ hasText: entry }).first();
    await shot(`picker-${parameter}.png`);
    await item.click();
    await items.first().waitFor({ state: 'hidden', timeout: 10_000 });
    return offered;
  }

  async function closeNode(ndv: Locator): Promise<void> {
    await page.keyboard.press('Escape');
    await ndv.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  beforeAll(async () => {
    if (!CHROMIUM) throw new Error('CI=true but chromium is missing: .ci/run installs it (apt-get install chromium)');
    mkdirSync(SHOTS, { recursive: true });
    const bin = installN8n();
    buildPackage();
    sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [KEY] });
    // Two documents, so the list's search has something to leave out.
    const ingest = (title: string, content: string, filename: string) =>
      fetch(`${sandbox.baseUrl}/library/documents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title, content, filename }),
      });
    const first = await ingest(TITLE, LIBRARY_TEXT, 'policies/access-review.md');
    expect(first.status, await first.clone().text()).toBe(202);
    documentId = ((await first.json()) as { documentId: string }).documentId;
    const second = await ingest('Backup standard', BACKUP, 'policies/backup.md');
    expect(second.status, await second.clone().text()).toBe(202);

    n8n = await N8nHarness.create(bin);
    let started = Date.now();
    server = await n8n.start();
    timings.n8nStart = Date.now() - started;
    editor = `http://127.0.0.1:${n8n.env.N8N_PORT}`;
    expect((await call('POST', '/rest/owner/setup', OWNER)).status).toBe(200);
    const credential = await call('POST', '/rest/credentials', { name: 'Compliance sandbox', type: 'complianceApi', data: { apiKey: KEY, baseUrl: sandbox.baseUrl, authHeader: 'bearer' } });
    expect(credential.status, JSON.stringify(credential.json)).toBe(200);
    const credentials = { complianceApi: { id: String(credential.json.data!.id), name: 'Compliance sandbox' } };
    // Version 2 of the node: framework and document are resource locators ("From List", "By ID").
    const node = (name: string, position: [number, number], parameters: Record<string, unknown>) => ({ id: randomUUID(), name, type: 'n8n-nodes-compliance.compliance', typeVersion: 2, position, parameters, credentials });
    const fromList = { __rl: true, mode: 'list', value: '' };
    const created = await call('POST', '/rest/workflows', {
      name: 'Compliance in the editor',
      active: false,
      settings: { executionOrder: 'v1' },
      nodes: [
        { id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
        node('Framework', [300, -120], { resource: 'framework', operation: 'get', slug: fromList }),
        node('Library Document', [300, 120], { resource: 'library', operation: 'get', documentId: fromList, includeContent: true }),
      ],
      connections: { Start: { main: [[{ node: 'Framework', type: 'main', index: 0 }, { node: 'Library Document', type: 'main', index: 0 }]] } },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    workflowId = String(created.json.data!.id);
    // Compliance Tool nodes as the editor holds them once dragged in with only the operation picked.
    const tool = (name: string, position: [number, number], parameters: Record<string, unknown>) => ({ id: randomUUID(), name, type: 'n8n-nodes-compliance.complianceTool', typeVersion: 2, position, parameters, credentials });
    const toolWorkflow = await call('POST', '/rest/workflows', {
      name: 'Compliance tools as added',
      active: false,
      settings: { executionOrder: 'v1' },
      nodes: [tool('Search Library', [0, 0], { resource: 'library' }), tool('Read Library Document', [300, 0], { resource: 'library', operation: 'get' })],
      connections: {},
    });
    expect(toolWorkflow.status, JSON.stringify(toolWorkflow.json)).toBe(200);
    toolWorkflowId = String(toolWorkflow.json.data!.id);

    started = Date.now();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(30_000);
    // Signed in through the form: n8n ties its session cookie to the browser's own id.
    await page.goto(`${editor}/signin`);
    await page.locator('input[name="emailOrLdapLoginId"]').fill(OWNER.email);
    await page.locator('input[name="password"]').fill(OWNER.password);
    await page.locator('[data-test-id="form-submit-button"]').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 60_000 });
    timings.browserAndSignIn = Date.now() - started;
  }, 30 * 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    n8n?.close();
    await sandbox?.close();
    if (process.env.COMPLIANCE_UPDATE_DOCS_SCREENSHOTS === '1') {
      mkdirSync(join(REPO, 'nodes/docs'), { recursive: true });
      for (const name of DOCS_SHOTS) if (existsSync(join(SHOTS, name))) copyFileSync(join(SHOTS, name), join(REPO, 'nodes/docs', name));
    }
    console.log(`editor timings (ms): ${JSON.stringify(timings)}`);
  });

  it('opens the workflow: both Compliance nodes on the canvas', async () => {
    const started = Date.now();
    await page.goto(`${editor}/workflow/${workflowId}`);
    const nodes = page.locator('[data-test-id="canvas-node"]');
    await expect.poll(() => nodes.count(), { timeout: 90_000 }).toBe(3);
    timings.openWorkflow = Date.now() - started;
    await shot('canvas.png');
    expect(await nodes.filter({ hasText: 'Framework' }).count()).toBe(1);
    expect(await nodes.filter({ hasText: 'Library Document' }).count()).toBe(1);
  }, 120_000);

  it('Framework → Get: pick the framework from the list (searched), execute the step, read the framework in the output panel', async () => {
    const ndv = await openNode('Framework');
    const offered = await pickFromList(ndv, 'slug', '27001', /ISO\/IEC 27001/);
    expect(offered.length).toBeGreaterThan(0);
    await shot('node-framework.png', ndv);
    const output = await executeStep(ndv);
    await shot('output-framework.png', ndv);
    expect(output).toContain('iso-27001');
    expect(output).toMatch(/ISO\/IEC 27001/);
    await closeNode(ndv);
  }, 180_000);

  it('Library → Get: pick the library document from the list (searched), execute the step, read its title and text in the output panel', async () => {
    const ndv = await openNode('Library Document');
    await pickFromList(ndv, 'documentId', 'access review', TITLE);
    await shot('node-library-document.png', ndv);
    const output = await executeStep(ndv);
    await shot('output-library-document.png', ndv);
    expect(output).toContain(documentId);
    expect(output).toContain(TITLE);
    expect(output).toContain('remove access that is no longer required');
    await closeNode(ndv);
  }, 180_000);

  it('Compliance Tool left as added: Query and Document show as defined by the model, and saving writes neither', async () => {
    await page.goto(`${editor}/workflow/${toolWorkflowId}`);
    const nodes = page.locator('[data-test-id="canvas-node"]');
    await expect.poll(() => nodes.count(), { timeout: 90_000 }).toBe(2);
    for (const [name, shotName] of [['Search Library', 'tool-search-query.png'], ['Read Library Document', 'tool-read-document.png']] as const) {
      const ndv = await openNode(name);
      await ndv.locator('[data-test-id="fromAI-override-field"]').first().waitFor({ timeout: 30_000 });
      await shot(shotName, ndv);
      expect(await ndv.locator('[data-test-id="fromAI-override-field"]').count(), name).toBe(1);
      await closeNode(ndv);
    }
    // Moved a little, then saved (Ctrl+S): what the editor writes for the tools.
    const box = (await nodes.filter({ hasText: 'Search Library' }).first().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 40, { steps: 5 });
    await page.mouse.up();
    await page.keyboard.press('Control+s');
    await expect.poll(async () => {
      const stored = await call('GET', `/rest/workflows/${toolWorkflowId}`);
      return (stored.json.data!.nodes as Array<{ name: string; position: number[] }>).find((node) => node.name === 'Search Library')!.position[0];
    }, { timeout: 30_000 }).not.toBe(0);
    const stored = (await call('GET', `/rest/workflows/${toolWorkflowId}`)).json.data!.nodes as Array<{ name: string; parameters: Record<string, unknown> }>;
    const saved = Object.fromEntries(stored.map((node) => [node.name, node.parameters]));
    console.log(`editor saved the tools as ${JSON.stringify(saved)}`);
    expect(saved['Read Library Document']).toEqual({ resource: 'library', operation: 'get' });
    expect(Object.keys(saved['Search Library']!)).not.toContain('query');
  }, 180_000);
});
