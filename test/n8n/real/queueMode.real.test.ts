/**
 * Our nodes in n8n's queue mode (2.40.7), the way deployments that outgrow one process run: PostgreSQL
 * and Redis from the Debian packages, `n8n start` as main with EXECUTIONS_MODE=queue and one
 * `n8n worker`, sharing only the database, Redis and the encryption key. Main runs the triggers and
 * webhooks and enqueues; the worker runs every execution. The suite imports the review-loop template
 * (its schedule swapped for a webhook so the test can start it in production mode) and the Balance
 * Low trigger workflow, and shows: executions are enqueued by main and run on the worker (logs and
 * the stored executions), the review loop does its work from the worker (library synced, gap issues
 * opened, email sent), and the trigger fires once per event across a restart of main (its cursor
 * survives in the database, not in a process).
 * Without PostgreSQL or Redis installed it skips and says why, except in CI (CI=true), where that
 * fails: .ci/run installs them. COMPLIANCE_SKIP_REAL_N8N=1 skips it too.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLeaks } from '../../hardening/leaks.js';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';
import { FakeGitHubRepo } from '../../templates/n8n/fakeGitHubRepo.js';
import { REPOSITORY_FILES } from '../../templates/n8n/review-loop.fixtures.js';
import { SmtpSink } from '../../templates/n8n/smtpSink.js';
import { CREDENTIAL_REFS, forImport, loadTemplate, type Template } from '../../templates/n8n/templates.js';
import { buildPackage, freePort, installN8n, N8nHarness, until as untilThen } from './harness.js';
import { recordingProxy, type RecordingProxy } from './recordingProxy.js';
import { startPostgres, startRedis, type Service } from './queueServices.js';
import { missingFor, postgresBin, redisBin, skipReason } from '../../systemPackages.js';
import { credentials, triggerWorkflow, WORKFLOW_IDS, type Keys } from './workflows.js';

const PG_BIN = postgresBin();
const REDIS_BIN = redisBin();
const missing = missingFor('queue-mode');

const KEYS: Keys = {
  sandbox: 'csk_sandbox_n8n_queue_mode_0001',
  trigger: 'csk_sandbox_n8n_queue_trigger_1',
  live: 'csk_live_n8n_queue_low_balance1',
};
// 50,000 tokens at the API plan's 22,222 a day: about 2.2 days left, under the 7-day threshold.
const LIVE_BALANCE = 50_000;
const GITHUB_TOKEN = 'ghp_fakeTokenForN8nQueueModeTest01';
const REPOSITORY = 'your-org/policies';
const REVIEW_ID = 'wfQueueReview001';
const REVIEW_PATH = `compliance-review-${randomUUID().slice(0, 8)}`;

interface StoredExecution {
  id: string;
  workflowId: string;
  mode: string;
  status: string;
}

/** The template with its Schedule Trigger swapped for a Webhook of the same name and place (production executions on demand). */
function withWebhookTrigger(template: Template, id: string, path: string): Template & { id: string } {
  const copy = forImport(template, id);
  const index = copy.nodes.findIndex((node) => node.type === 'n8n-nodes-base.scheduleTrigger');
  if (index < 0) throw new Error('no Schedule Trigger in the review-loop template');
  const { id: nodeId, name, position } = copy.nodes[index]!;
  copy.nodes[index] = { id: nodeId, name, position, type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId: randomUUID(), parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} } };
  return copy;
}

describe.skipIf(Boolean(skipReason('queue-mode')))('our nodes in n8n queue mode (PostgreSQL, Redis, main + one worker)', () => {
  let pg: Service;
  let redis: Service;
  let sandbox: RunningSandbox;
  /** Between n8n and the sandbox: shows when a poll of the trigger was answered. */
  let proxy: RecordingProxy;
  let repo: FakeGitHubRepo;
  let smtp: SmtpSink;
  let capture: Server;
  let n8n: N8nHarness;
  let main: Awaited<ReturnType<N8nHarness['start']>> | undefined;
  let worker: { output: () => string; stop: () => Promise<void> } | undefined;
  const mainOutputs: string[] = [];
  const events: Array<Record<string, unknown>> = [];
  const timings: Record<string, number> = {};

  function sql(query: string): string[][] {
    const out = execFileSync(join(PG_BIN!, 'psql'), ['-h', '127.0.0.1', '-p', String(pg.port), '-U', 'postgres', '-d', 'n8n', '-At', '-F', '\t', '-c', query], { encoding: 'utf8' });
    return out.split('\n').filter(Boolean).map((line) => line.split('\t'));
  }
  function executions(workflowId: string): StoredExecution[] {
    return sql(`select id, "workflowId", mode, status from execution_entity where "workflowId" = '${workflowId}' order by id`).map(([id, wf, mode, status]) => ({ id: id!, workflowId: wf!, mode: mode!, status: status! }));
  }
  /** The worker logs the end of an execution just after it stored the result. */
  const finishedOnWorker = (id: string) => worker?.output().includes(`Worker finished execution ${id} `) ?? false;
  const until = <T,>(what: string, probe: () => T | undefined, ms = 90_000) =>
    untilThen(what, probe, ms, () => `main:\n${main?.output().slice(-3000)}\nworker:\n${worker?.output().slice(-3000)}`);
  /** The trigger's balance polls the sandbox has answered (only the trigger reads the balance). */
  const balancePolls = () => proxy.answered.filter((line) => /^GET \/api\/public\/v1\/billing(\?|$)/.test(line)).length;

  async function startWorker(): Promise<NonNullable<typeof worker>> {
    // Its own ports: the task-runner broker (and any server it opens) must not clash with main's.
    const env = { N8N_PORT: String(await freePort()), N8N_RUNNERS_BROKER_PORT: String(await freePort()) };
    return n8n.start(120_000, { args: ['worker', '--concurrency=2'], env, ready: /n8n worker is now ready/ });
  }

  async function startMain(): Promise<void> {
    const started = Date.now();
    main = await n8n.start();
    mainOutputs.push('');
    timings[`mainStart${mainOutputs.length}`] = Date.now() - started;
  }
  async function stopMain(): Promise<void> {
    if (!main) return;
    await main.stop();
    mainOutputs[mainOutputs.length - 1] = main.output();
    main = undefined;
  }
  const allMainOutput = () => [...mainOutputs.slice(0, -1), main?.output() ?? mainOutputs.at(-1) ?? ''].join('\n');

  beforeAll(async () => {
    if (missing.length) throw new Error(`CI=true but ${missing.join(' and ')} missing: .ci/run installs postgresql and redis-server`);
    const bin = installN8n();
    buildPackage();
    let started = Date.now();
    [pg, redis] = await Promise.all([startPostgres(PG_BIN!, 'n8n'), startRedis(REDIS_BIN!)]);
    timings.postgresAndRedis = Date.now() - started;
    sandbox = await startSandbox({ port: 0, jobSeconds: 1, keys: [KEYS.sandbox, KEYS.trigger, `${KEYS.live}:live:${LIVE_BALANCE}`] });
    proxy = await recordingProxy(sandbox.origin);
    repo = await new FakeGitHubRepo({ token: GITHUB_TOKEN, repository: REPOSITORY }).start();
    for (const [path, content] of Object.entries(REPOSITORY_FILES)) repo.files.set(path, content);
    smtp = await new SmtpSink().start();
    capture = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        events.push(JSON.parse(body) as Record<string, unknown>);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolveListen) => capture.listen(0, '127.0.0.1', resolveListen));

    n8n = await N8nHarness.create(bin);
    delete n8n.env.DB_SQLITE_POOL_SIZE;
    Object.assign(n8n.env, {
      DB_TYPE: 'postgresdb',
      DB_POSTGRESDB_HOST: '127.0.0.1',
      DB_POSTGRESDB_PORT: String(pg.port),
      DB_POSTGRESDB_DATABASE: 'n8n',
      DB_POSTGRESDB_USER: 'postgres',
      DB_POSTGRESDB_PASSWORD: '',
      EXECUTIONS_MODE: 'queue',
      QUEUE_BULL_REDIS_HOST: '127.0.0.1',
      QUEUE_BULL_REDIS_PORT: String(redis.port),
      // Main and worker must decrypt the same credentials: one key, given to both.
      N8N_ENCRYPTION_KEY: randomBytes(24).toString('base64url'),
      EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
    });
    started = Date.now();
    const { github, smtp: smtpRef, compliance } = CREDENTIAL_REFS;
    await n8n.importCredentials([
      ...credentials(proxy.origin, `${proxy.origin}${new URL(sandbox.baseUrl).pathname}`, KEYS),
      { ...compliance, data: { apiKey: KEYS.sandbox, baseUrl: sandbox.baseUrl, authHeader: 'bearer' } },
      { ...github, data: { server: repo.url, user: 'n8n', accessToken: GITHUB_TOKEN } },
      { ...smtpRef, data: { host: '127.0.0.1', port: smtp.port, secure: false, user: '', password: '' } },
    ]);
    const captureUrl = `http://127.0.0.1:${(capture.address() as AddressInfo).port}/events`;
    await n8n.importWorkflows([withWebhookTrigger(loadTemplate('review-loop.json'), REVIEW_ID, REVIEW_PATH), triggerWorkflow(captureUrl)]);
    // Each CLI command is a whole n8n start-up: the two publishes run side by side.
    const published = await Promise.all([REVIEW_ID, WORKFLOW_IDS.triggerBalance].map((id) => n8n.run(['publish:workflow', `--id=${id}`])));
    for (const result of published) expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    timings.importAndPublish = Date.now() - started;
    // Side by side too: what main enqueues before the worker is ready waits in Redis.
    started = Date.now();
    [worker] = await Promise.all([startWorker(), startMain()]);
    timings.workerAndMainStart = Date.now() - started;
  }, 30 * 60_000);

  afterAll(async () => {
    await stopMain();
    await worker?.stop();
    n8n?.close();
    capture?.close();
    await Promise.all([proxy?.close(), sandbox?.close(), repo?.close(), smtp?.close(), pg?.stop(), redis?.stop()]);
    console.log(`queue-mode timings (ms): ${JSON.stringify(timings)}`);
  });

  it('the trigger, polled by main at activation, fires once and its execution runs on the worker', async () => {
    await until('the Balance Low event', () => (events.length ? true : undefined));
    const [execution] = await until('the trigger execution to finish', () => {
      const stored = executions(WORKFLOW_IDS.triggerBalance);
      return stored.length && stored.every((one) => !['new', 'running'].includes(one.status) && finishedOnWorker(one.id)) ? stored : undefined;
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event: 'balanceLow', eventKey: 'balanceLow:1', thresholdDays: 7, balanceTokens: LIVE_BALANCE, mode: 'live' });
    expect(execution).toMatchObject({ mode: 'trigger', status: 'success' });
    expect(main!.output()).toContain(`Enqueued execution ${execution!.id} `);
    expect(worker!.output()).toContain(`Worker started execution ${execution!.id} `);
    expect(worker!.output()).toContain(`Worker finished execution ${execution!.id} `);
  }, 180_000);

  it('the review loop, started by a webhook on main, runs on the worker: library synced from the repository, email sent', async () => {
    const started = Date.now();
    const answer = await fetch(`http://127.0.0.1:${n8n.env.N8N_PORT}/webhook/${REVIEW_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(answer.status, await answer.text()).toBe(200);
    const [execution] = await until(
      'the review-loop execution to finish',
      () => {
        const stored = executions(REVIEW_ID);
        return stored.length && stored.every((one) => !['new', 'running', 'waiting'].includes(one.status) && finishedOnWorker(one.id)) ? stored : undefined;
      },
      240_000,
    );
    timings.reviewLoop = Date.now() - started;
    expect(execution, `worker:\n${worker!.output().slice(-4000)}`).toMatchObject({ mode: 'webhook', status: 'success' });
    expect(main!.output()).toContain(`Enqueued execution ${execution!.id} `);
    expect(worker!.output()).toContain(`Worker finished execution ${execution!.id} `);
    expect(main!.output()).not.toMatch(/Worker started execution/);

    // What the loop did, seen from outside n8n: the repository's policies are library documents
    // (by file path), and the review summary went out by email.
    const library = (await (await fetch(`${sandbox.baseUrl}/library?limit=100`, { headers: { authorization: `Bearer ${KEYS.sandbox}` } })).json()) as { documents: Array<{ filename: string | null }> };
    const policyFiles = Object.keys(REPOSITORY_FILES).filter((path) => /^policies\/[^/]+\.(md|txt)$/.test(path));
    expect(policyFiles.length).toBeGreaterThan(1);
    expect(library.documents.map((document) => document.filename).sort()).toEqual(policyFiles.sort());
    const [mail] = await smtp.waitFor(() => true, 1, 30_000);
    expect(mail!.to).toEqual(['compliance-team@example.com']);
    expect(mail!.subject).toMatch(/your-org\/policies/);
    // The Review operations did their work on the worker: every file ingested by Sync Documents, and
    // Plan Gap Issues' create actions carried out (25: the template's maxNewIssues), each with its marker.
    expect(mail!.text).toContain(`Library sync: ${policyFiles.length} files – ${policyFiles.length} ingested, 0 refreshed, 0 unchanged (not re-sent)`);
    const issues = repo.github.issueList();
    expect(issues).toHaveLength(25);
    expect(issues.every((issue) => /<!-- compliance-gap:iso-27001\/\S+ -->$/.test(issue.body ?? ''))).toBe(true);
  }, 300_000);

  it('a restart of main polls the trigger again at activation and nothing fires twice (the cursor lives in the database)', async () => {
    await stopMain();
    const started = Date.now();
    const pollsBefore = balancePolls();
    await startMain();
    // Activation polls at once. Once that poll is answered, stopping main lets an execution it
    // enqueued be stored first, and the worker (still running) would have run it: so a second
    // event would show in the database and at the capture server.
    await until("the restart's activation poll to be answered", () => (balancePolls() > pollsBefore ? true : undefined));
    await stopMain();
    timings.restart = Date.now() - started;
    expect(mainOutputs.at(-1)).toMatch(/Editor is now accessible/);
    expect(events).toHaveLength(1);
    expect(executions(WORKFLOW_IDS.triggerBalance)).toHaveLength(1);
    const problems = allMainOutput().split('\n').filter((line) => /Problem with execution|problem activating|There was a problem/i.test(line));
    expect(problems).toEqual([]);
  }, 180_000);

  it('every execution ran on the worker and none failed; no key in the logs of main or worker', () => {
    const all = sql(`select id, status from execution_entity order by id`);
    expect(all.length).toBe(2);
    expect(all.map(([, status]) => status)).toEqual(['success', 'success']);
    for (const [id] of all) expect(worker!.output()).toContain(`Worker started execution ${id} `);
    expect(allMainOutput()).not.toMatch(/Worker started execution/);
    const logs = [
      { place: 'main', text: allMainOutput() },
      { place: 'worker', text: worker!.output() },
    ];
    expect(findLeaks(logs, [...Object.values(KEYS), GITHUB_TOKEN])).toEqual([]);
  });
});
