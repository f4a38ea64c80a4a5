/**
 * The n8n workflow templates in a real n8n (2.40.7, the harness of the nodes' real-n8n suite), run
 * against the sandbox, a fake GitHub API (contents, issues) and an SMTP sink, all on loopback:
 * - review loop: executed twice with `n8n execute` (its Schedule Trigger swapped for a Manual Trigger
 *   of the same name; every other node and connection as shipped);
 * - discover and generate: published, `n8n start`, the form POSTed over HTTP;
 * - balance and review reminders: published, the Compliance Triggers poll at activation;
 * - library Q&A agent: imported (no model is reachable), its wiring checked in the static suite.
 * Set COMPLIANCE_SKIP_REAL_N8N=1 to skip (it says so).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';
import { buildPackage, installN8n, N8nHarness, type ExecutionItem, type N8nRun } from '../../n8n/real/harness.js';
import { FakeGitHubRepo } from './fakeGitHubRepo.js';
import { ACCEPTABLE_USE, ACCESS_CONTROL, BACKUP, CONVENTIONS, CONVENTIONS_PATH, crlfWithTrailingSpaces, DUPLICATE_PATH, INCIDENT_RESPONSE_OLD, REPOSITORY_FILES } from './review-loop.fixtures.js';
import { SmtpSink } from './smtpSink.js';
import { CREDENTIAL_REFS, forImport, loadTemplate, TEMPLATE_FILES, withManualTrigger, type Template } from './templates.js';

const skip = process.env.COMPLIANCE_SKIP_REAL_N8N === '1';
if (skip) console.warn('COMPLIANCE_SKIP_REAL_N8N=1: the real-n8n template suite is skipped');

const SANDBOX_KEY = 'csk_sandbox_n8n_templates_0001';
const LIVE_KEY = 'csk_live_n8n_templates_reminders1';
// 400,000 tokens at the API plan's 22,222 a day: 18 days, above the 7-day threshold. Two form
// requests (discovery 20,000 and generation 150,000 each) leave 60,000; a third one's discovery
// leaves 40,000 (1.8 days, under the threshold) and its generation is refused (insufficient_balance).
const LIVE_BALANCE = 400_000;
const GITHUB_TOKEN = 'ghp_fakeTokenForN8nTemplateTests0001';
const FORM_USER = 'policy-form';
const FORM_PASSWORD = 'form-password-for-tests';
// The repository the review-loop template's Settings node names.
const REPOSITORY = 'your-org/policies';

const MAX_NEW_ISSUES = 25;
const marker = (issue: { body: string | null }) => /<!-- (compliance-gap:\S+) -->/.exec(issue.body ?? '')?.[1];

const IDS = { review: 'wfTplReviewLoop1', reviewDelete: 'wfTplReviewDelRm', discover: 'wfTplDiscoverGen', reminders: 'wfTplReminders01', agent: 'wfTplLibraryQaAg' } as const;

interface LibraryDocument {
  id: string;
  title: string;
  filename: string | null;
  version: number;
  contentHash: string;
}

/** The review loop as shipped with one option switched on: Sync Documents → Delete Documents That Left the Set. */
function withDeleteRemoved(template: Template & { id: string }): Template & { id: string } {
  const sync = template.nodes.find((node) => node.name === 'Sync Documents')!;
  sync.parameters = { ...sync.parameters, options: { ...(sync.parameters.options as object), deleteRemoved: true } };
  return { ...template, name: `${template.name} (deleting documents that left the set)` };
}

describe.skipIf(skip)('the n8n templates in a real n8n', () => {
  let sandbox: RunningSandbox;
  let repo: FakeGitHubRepo;
  let smtp: SmtpSink;
  let n8n: N8nHarness;
  let n8nModules: string;
  const timings: Record<string, number> = {};
  /** A control the first review found covered. */
  let coveredControl = '';

  async function api<T>(key: string, method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${sandbox.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await response.json()) as T;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  }

  async function ingest(title: string, content: string, filename?: string): Promise<void> {
    const accepted = await api<{ jobId: string }>(SANDBOX_KEY, 'POST', '/library/documents', { title, content, ...(filename ? { filename } : {}) });
    for (let i = 0; i < 100; i++) {
      const job = await api<{ status: string }>(SANDBOX_KEY, 'GET', `/jobs/${accepted.jobId}`);
      if (job.status === 'completed') return;
      if (job.status === 'failed') throw new Error(`seed ingest of ${title} failed`);
      await delay(100);
    }
    throw new Error(`seed ingest of ${title} did not finish`);
  }

  async function library(): Promise<LibraryDocument[]> {
    return (await api<{ documents: LibraryDocument[] }>(SANDBOX_KEY, 'GET', '/library?limit=100')).documents;
  }

  function complianceCredential(key: string) {
    const { id, name, type } = CREDENTIAL_REFS.compliance;
    return { id, name, type, data: { apiKey: key, baseUrl: sandbox.baseUrl, authHeader: 'bearer' } };
  }

  beforeAll(async () => {
    const bin = installN8n();
    n8nModules = dirname(dirname(bin));
    buildPackage();
    sandbox = await startSandbox({ port: 0, jobSeconds: 1, keys: [SANDBOX_KEY, `${LIVE_KEY}:live:${LIVE_BALANCE}`] });
    repo = await new FakeGitHubRepo({ token: GITHUB_TOKEN, repository: REPOSITORY }).start();
    for (const [path, content] of Object.entries(REPOSITORY_FILES)) repo.files.set(path, content);
    repo.files.set(DUPLICATE_PATH, ACCESS_CONTROL);
    repo.files.set(CONVENTIONS_PATH, CONVENTIONS);
    smtp = await new SmtpSink().start();

    // The library before the first review: an older incident procedure, the acceptable-use policy
    // as it is (LF, no trailing spaces), and the backup standard uploaded by hand (no filename).
    await ingest('Incident Response', INCIDENT_RESPONSE_OLD, 'policies/incident-response.md');
    await ingest('Acceptable Use Policy', ACCEPTABLE_USE, 'policies/acceptable-use.md');
    await ingest('Backup standard (manual upload)', BACKUP);

    n8n = await N8nHarness.create(bin);
    const started = Date.now();
    const { github, smtp: smtpRef, formAuth } = CREDENTIAL_REFS;
    await n8n.importCredentials([
      complianceCredential(SANDBOX_KEY),
      { ...github, data: { server: repo.url, user: 'n8n', accessToken: GITHUB_TOKEN } },
      { ...smtpRef, data: { host: '127.0.0.1', port: smtp.port, secure: false, user: '', password: '' } },
      { ...formAuth, data: { user: FORM_USER, password: FORM_PASSWORD } },
    ]);
    await n8n.importWorkflows([
      withManualTrigger(loadTemplate('review-loop.json'), 'Every Quarter', IDS.review),
      withDeleteRemoved(withManualTrigger(loadTemplate('review-loop.json'), 'Every Quarter', IDS.reviewDelete)),
      forImport(loadTemplate('discover-and-generate.json'), IDS.discover),
      forImport(loadTemplate('balance-and-review-reminders.json'), IDS.reminders),
      forImport(loadTemplate('library-qa-agent.json'), IDS.agent),
    ]);
    timings.import = Date.now() - started;
  }, 30 * 60_000);

  afterAll(async () => {
    n8n?.close();
    await sandbox?.close();
    await repo?.close();
    await smtp?.close();
    console.log(`real n8n template timings (ms): ${JSON.stringify(timings)}`);
  });

  async function execute(id: string, label: string): Promise<N8nRun> {
    const run = await n8n.execute(id);
    timings[label] = run.ms;
    for (const secret of [SANDBOX_KEY, LIVE_KEY, GITHUB_TOKEN, FORM_PASSWORD]) {
      expect(run.stdout).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
    }
    return run;
  }

  /** Items of one output of a node's first run; [] when the node did not run. */
  function output(run: N8nRun, nodeName: string, index = 0): ExecutionItem[] {
    return run.execution.data.resultData.runData[nodeName]?.[0]?.data?.main[index] ?? [];
  }

  const ran = (run: N8nRun, nodeName: string) => nodeName in run.execution.data.resultData.runData;

  function failure(run: N8nRun): string {
    return JSON.stringify(run.execution.data.resultData.error ?? null).slice(0, 2000) + run.stderr.slice(-2000);
  }

  /** Sync Documents' result per path. */
  function syncResults(run: N8nRun): Record<string, Record<string, unknown>> {
    return Object.fromEntries(output(run, 'Sync Documents').map((item) => [String(item.json.path), item.json]));
  }

  interface Verdict {
    passed: boolean;
    coverage: number;
    threshold: number;
    framework: { slug: string; key: string };
    gaps: Array<{ key: string; controlId: string; title: string; status: string }>;
    controls: Array<{ id: string; status: string }>;
  }
  /** The gaps in the order Plan Gap Issues opens issues for them: missing before partial, then by control. */
  const inIssueOrder = (gaps: Verdict['gaps']) =>
    [...gaps].sort((a, b) => Number(a.status !== 'missing') - Number(b.status !== 'missing') || a.controlId.localeCompare(b.controlId));
  const keyOf = (key: string) => `compliance-gap:${key}`;
  let firstGaps: string[] = [];

  it('review loop, first run: ingests new files, refreshes changed ones, skips unchanged ones, maps, opens gap issues and emails', async () => {
    const libraryBefore = await library();
    const run = await execute(IDS.review, 'reviewRun1');
    expect(run.execution.status, failure(run)).toBe('success');

    // Only Markdown and text files of the folder; no sub-folder, no image, nothing outside it.
    expect(output(run, 'List Repository Files').map((item) => item.json.name).sort()).toEqual(['acceptable-use.md', 'access-control.md', 'archive', 'backup.txt', 'conventions.md', 'diagram.png', 'incident-response.md', 'security-baseline.md']);
    const paths = (items: ExecutionItem[]) => items.map((item) => item.json.path).sort();
    const policyPaths = ['policies/acceptable-use.md', 'policies/access-control.md', 'policies/backup.txt', CONVENTIONS_PATH, 'policies/incident-response.md', DUPLICATE_PATH].sort();
    expect(paths(output(run, 'Markdown and Text Files'))).toEqual(policyPaths);

    // The decision, by path and content hash (CRLF and trailing spaces are no change), priced at live prices.
    const sync = syncResults(run);
    expect(Object.keys(sync).sort()).toEqual(policyPaths);
    expect(sync['policies/access-control.md']).toMatchObject({ kind: 'new', outcome: 'ingested', documentId: expect.stringMatching(/^doc_/), plannedTokens: 400_000 });
    expect(sync[CONVENTIONS_PATH]).toMatchObject({ kind: 'new', outcome: 'ingested', plannedTokens: 400_000 });
    expect(sync['policies/incident-response.md']).toMatchObject({ kind: 'changed', outcome: 'refreshed', version: 2, plannedTokens: 400_000 });
    expect(sync['policies/acceptable-use.md']).toMatchObject({ kind: 'unchanged', outcome: 'kept', plannedTokens: 0, tokensSpent: 0 });
    // The backup standard is in the library already, uploaded by hand under no filename: not sent again.
    const backup = libraryBefore.find((document) => document.filename === null)!;
    expect(sync['policies/backup.txt']).toMatchObject({ kind: 'renamed', outcome: 'kept', documentId: backup.id, plannedTokens: 0, message: expect.stringMatching(/ingested without a file name/) });
    // The same text under two names: the second is not sent (the service would refuse it), reported.
    expect(sync[DUPLICATE_PATH]).toMatchObject({ kind: 'duplicate', outcome: 'skipped', plannedTokens: 0, message: expect.stringMatching(/same text as policies\/access-control\.md/) });
    // Three charged actions on a live key; a sandbox key pays nothing.
    expect(Object.values(sync).map((result) => [result.planTotalTokens, result.tokensSpent, result.mode, result.dryRun])).toEqual(policyPaths.map(() => [1_200_000, 0, 'sandbox', false]));

    // The library now holds every file of the folder at its path, except the duplicate and the backup
    // standard (held under no filename); nothing else changed.
    const documents = await library();
    const byFile = (path: string) => documents.find((document) => document.filename === path);
    expect(documents.map((document) => document.filename ?? '(none)').sort()).toEqual(['(none)', 'policies/acceptable-use.md', 'policies/access-control.md', CONVENTIONS_PATH, 'policies/incident-response.md'].sort());
    expect(byFile('policies/access-control.md')).toMatchObject({ version: 1, title: 'Access Control Policy' });
    expect(byFile('policies/incident-response.md')).toMatchObject({ version: 2 });
    expect(byFile('policies/acceptable-use.md')).toMatchObject({ version: 1, id: libraryBefore.find((document) => document.filename === 'policies/acceptable-use.md')!.id });
    expect(documents.find((document) => document.id === backup.id)).toMatchObject({ version: 1, filename: null });

    const [mapped] = output(run, 'Map Policy Set');
    const verdict = mapped!.json as unknown as Verdict;
    coveredControl = verdict.controls.find((control) => control.status === 'covered')!.id;
    expect(verdict.framework.slug).toBe('iso-27001');
    expect(verdict.passed).toBe(false);
    expect(verdict.coverage).toBeLessThan(80);
    firstGaps = verdict.gaps.map((gap) => gap.key);

    // One issue per gap, labelled, each with its marker; at most 25 (Settings → maxNewIssues) per run.
    const ordered = inIssueOrder(verdict.gaps);
    expect(ordered.length).toBeGreaterThan(MAX_NEW_ISSUES);
    const expected = ordered.slice(0, MAX_NEW_ISSUES);
    const plan = output(run, 'Plan Gap Issues');
    expect(plan.filter((item) => item.json.action === 'deferred')).toHaveLength(ordered.length - MAX_NEW_ISSUES);
    expect(output(run, 'Create Gap Issue')).toHaveLength(MAX_NEW_ISSUES);
    const issues = repo.github.issueList();
    expect(issues).toHaveLength(MAX_NEW_ISSUES);
    expect(issues.every((issue) => issue.labels.includes('compliance-gap'))).toBe(true);
    expect(issues.map(marker)).toEqual(expected.map((gap) => keyOf(gap.key)));
    expect(issues[0]!.body).toMatch(new RegExp(`<!-- compliance-gap:iso-27001/${encodeURIComponent(expected[0]!.controlId).replace(/[.]/g, '\\.')} -->$`));
    expect(issues[0]!.title).toBe(`[Compliance gap] iso-27001 ${expected[0]!.controlId}: ${expected[0]!.title}`);

    const [mail] = await smtp.waitFor(() => true, 1, 10_000);
    expect(mail!.to).toEqual(['compliance-team@example.com']);
    expect(mail!.subject).toBe(`Compliance coverage ${verdict.coverage}% is below 80% for your-org/policies`);
    expect(mail!.text).toContain('Library sync: 6 files – 2 ingested, 1 refreshed, 1 unchanged (not re-sent); 0 tokens spent');
    expect(mail!.text).toContain(`- policies/backup.txt: same text as library document ${backup.id} (ingested without a file name): nothing charged`);
    expect(mail!.text).toMatch(/Sync problems:\n- policies\/security-baseline\.md: skipped – same text as policies\/access-control\.md/);
    expect(mail!.text).not.toContain('No longer in the folder');
    expect(mail!.text).toContain(`New gap issues: ${MAX_NEW_ISSUES} (limit ${MAX_NEW_ISSUES} per run; ${ordered.length - MAX_NEW_ISSUES} more gaps get issues at the next runs)`);
    expect(mail!.text).toContain(`- #${issues[0]!.number} ${issues[0]!.title} `);
    expect(mail!.text).toContain('Updated gap issues: none');
    expect(mail!.text).toContain('Closed gap issues (control now covered): none');
    expect(ran(run, 'Update Gap Issue')).toBe(false);
    expect(ran(run, 'Close Resolved Gap Issue')).toBe(false);
  }, 300_000);

  it('review loop, second run: nothing re-sent, a deleted file\'s document kept, no duplicate issues, a closed gap issue opened anew, a resolved one closed', async () => {
    const before = await library();
    const openBefore = repo.github.issueList();
    // An editor on Windows touched the access-control policy: CRLF and trailing spaces only.
    repo.files.set('policies/access-control.md', crlfWithTrailingSpaces(repo.files.get('policies/access-control.md')!));
    // A file was deleted from the folder.
    repo.files.delete(CONVENTIONS_PATH);
    // Someone closed one gap issue although the gap is still there.
    const closed = openBefore[0]!;
    closed.state = 'closed';
    closed.state_reason = 'completed';
    // An open gap issue for a control that is covered (resolved since), opened by the earlier version
    // of the template (marker <framework>:<control>), and one a person opened with the label but no marker.
    const post = async (title: string, body: string) => {
      const response = await fetch(`${repo.url}/repos/${REPOSITORY}/issues`, {
        method: 'POST',
        headers: { authorization: `token ${GITHUB_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title, body, labels: ['compliance-gap'] }),
      });
      return ((await response.json()) as { number: number }).number;
    };
    const resolved = await post(`[Compliance gap] iso-27001 ${coveredControl}: resolved since`, `Old gap.\n\n<!-- compliance-gap:iso-27001:${coveredControl} -->`);
    const manual = await post('Write a supplier policy', 'Opened by a person.');
    const mailsBefore = smtp.messages.length;

    const run = await execute(IDS.review, 'reviewRun2');
    expect(run.execution.status, failure(run)).toBe('success');
    const sync = syncResults(run);
    expect(Object.fromEntries(Object.entries(sync).map(([path, result]) => [path, `${result.kind}/${result.outcome}`]))).toEqual({
      'policies/acceptable-use.md': 'unchanged/kept',
      'policies/access-control.md': 'unchanged/kept',
      'policies/backup.txt': 'renamed/kept',
      [CONVENTIONS_PATH]: 'removed/kept',
      'policies/incident-response.md': 'unchanged/kept',
      [DUPLICATE_PATH]: 'duplicate/skipped',
    });
    // Nothing to charge, even at live prices.
    expect(Object.values(sync).every((result) => result.planTotalTokens === 0 && result.tokensSpent === 0)).toBe(true);
    expect(sync[CONVENTIONS_PATH]!.message).toBe('no longer in the set; kept (Options → Delete Documents That Left the Set deletes it)');
    // Nothing in the library changed: no refresh, no new version, the deleted file's document kept.
    expect((await library()).map((document) => [document.id, document.version])).toEqual(before.map((document) => [document.id, document.version]));
    expect(before.map((document) => document.filename)).toContain(CONVENTIONS_PATH);

    // The conventions file says nothing toward a control: the same gaps as at the first run.
    const verdict = output(run, 'Map Policy Set')[0]!.json as unknown as Verdict;
    expect(verdict.gaps.map((gap) => gap.key)).toEqual(firstGaps);
    // The 24 open gap issues are not created again, nor changed; the closed one is created anew, then the next 24 gaps in order.
    const ordered = inIssueOrder(verdict.gaps);
    const created = output(run, 'Create Gap Issue');
    expect(created).toHaveLength(MAX_NEW_ISSUES);
    expect(created[0]!.json.title).toBe(closed.title);
    const openTitles = new Set(openBefore.filter((issue) => issue !== closed).map((issue) => issue.title));
    expect(created.filter((item) => openTitles.has(String(item.json.title)))).toEqual([]);
    expect(ran(run, 'Update Gap Issue')).toBe(false);
    const open = repo.github.issueList().filter((issue) => issue.state === 'open');
    expect(open.map(marker).filter(Boolean).sort()).toEqual(ordered.slice(0, 2 * MAX_NEW_ISSUES - 1).map((gap) => keyOf(gap.key)).sort());
    // The resolved gap's issue (old marker) is closed as completed; the person's issue is left alone.
    expect(output(run, 'Close Resolved Gap Issue').map((item) => item.json.number)).toEqual([resolved]);
    expect(repo.github.issues.get(resolved)).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect(repo.github.issues.get(manual)).toMatchObject({ state: 'open', body: 'Opened by a person.' });

    const mails = await smtp.waitFor(() => true, mailsBefore + 1, 10_000);
    const text = mails.at(-1)!.text;
    expect(text).toContain('Library sync: 5 files – 0 ingested, 0 refreshed, 3 unchanged (not re-sent); 0 tokens spent');
    expect(text).toContain(`No longer in the folder:\n- ${CONVENTIONS_PATH}: no longer in the set; kept (Options → Delete Documents That Left the Set deletes it)`);
    expect(text).toContain(`New gap issues: ${MAX_NEW_ISSUES} (limit`);
    expect(text).toContain(`Closed gap issues (control now covered): #${resolved}`);
  }, 300_000);

  it('review loop with Delete Documents That Left the Set switched on: the deleted file\'s document goes, nothing else changes', async () => {
    const before = await library();
    const run = await execute(IDS.reviewDelete, 'reviewRun3DeleteRemoved');
    expect(run.execution.status, failure(run)).toBe('success');
    const sync = syncResults(run);
    expect(sync[CONVENTIONS_PATH]).toMatchObject({ kind: 'removed', outcome: 'deleted', tokensSpent: 0 });
    expect(Object.values(sync).filter((result) => result.outcome === 'ingested' || result.outcome === 'refreshed')).toEqual([]);
    const after = await library();
    expect(after.map((document) => document.filename)).not.toContain(CONVENTIONS_PATH);
    expect(after.map((document) => [document.id, document.version])).toEqual(
      before.filter((document) => document.filename !== CONVENTIONS_PATH).map((document) => [document.id, document.version]),
    );
  }, 300_000);

  it('discover and generate (form, PDF and DOCX) and the balance and review reminders (triggers) in a running n8n', async () => {
    // These two run on a live key: the reminders need a balance, and the form's charges lower it.
    await n8n.importCredentials([complianceCredential(LIVE_KEY)]);
    for (const id of [IDS.discover, IDS.reminders]) {
      const published = await n8n.run(['publish:workflow', `--id=${id}`]);
      expect(published.exitCode, published.stdout + published.stderr).toBe(0);
    }
    // The next review is due shortly after the first activation poll records it.
    const reviewAt = new Date(Date.now() + 60_000);
    await api(LIVE_KEY, 'PUT', '/calendar', { cadence: 'monthly', firstReviewAt: reviewAt.toISOString() });

    let started = Date.now();
    let server = await n8n.start();
    timings.firstStart = Date.now() - started;
    expect(Date.now(), 'n8n took too long to start: the first poll must come before the review date').toBeLessThan(reviewAt.getTime() - 5_000);
    const port = n8n.env.N8N_PORT;
    const mailsBefore = smtp.messages.length;
    try {
      const request = (documentType: string, format: string, email: string) => {
        const form = new FormData();
        form.set('field-0', 'We are a UK SaaS company storing EU customers\' personal data');
        form.set('field-1', 'EU');
        form.set('field-2', 'Acme Ltd');
        form.set('field-3', documentType);
        form.set('field-4', format);
        form.set('field-5', email);
        return form;
      };
      const form = request('Data Protection Policy', 'PDF', 'dpo@acme.example');
      const url = `http://127.0.0.1:${port}/form/compliance-policy-request`;
      // Published workflows are activated just after the editor comes up.
      for (let i = 0; i < 120 && (await fetch(url)).status === 404; i++) await delay(250);
      // The form is protected: no login, no run.
      const anonymous = await fetch(url, { method: 'POST', body: form });
      expect(anonymous.status, server.output().slice(-4000)).toBe(401);
      const submitted = await fetch(url, { method: 'POST', body: form, headers: { authorization: `Basic ${Buffer.from(`${FORM_USER}:${FORM_PASSWORD}`).toString('base64')}` } });
      expect(submitted.status).toBe(200);

      const [mail] = await smtp.waitFor((message) => message.to.includes('dpo@acme.example'), 1, 120_000);
      timings.formToEmail = Date.now() - started;
      expect(mail!.subject).toBe('Your Data Protection Policy for General Data Protection Regulation');
      expect(mail!.text).toMatch(/1\. General Data Protection Regulation \(European Union/);
      expect(mail!.text).toContain('Attached is a Data Protection Policy for Acme Ltd');
      expect(mail!.attachments).toHaveLength(1);
      const [pdf] = mail!.attachments;
      expect(pdf!.contentType).toBe('application/pdf');
      expect(pdf!.filename).toMatch(/\.pdf$/);
      expect(pdf!.body.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf!.body.length).toBeGreaterThan(1000);

      // The same form asking for a DOCX.
      const second = await fetch(url, { method: 'POST', body: request('Access Control Policy', 'DOCX', 'ciso@acme.example'), headers: { authorization: `Basic ${Buffer.from(`${FORM_USER}:${FORM_PASSWORD}`).toString('base64')}` } });
      expect(second.status).toBe(200);
      const [docxMail] = await smtp.waitFor((message) => message.to.includes('ciso@acme.example'), 1, 120_000);
      expect(docxMail!.subject).toBe('Your Access Control Policy for General Data Protection Regulation');
      const [docx] = docxMail!.attachments;
      expect(docx!.contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
      expect(docx!.filename).toMatch(/\.docx$/);
      expect(docx!.body.subarray(0, 2).toString()).toBe('PK');

      // A third request finds the balance too low for a generation: the requester is told why.
      const third = await fetch(url, { method: 'POST', body: request('Incident Response Plan', 'PDF', 'ops@acme.example'), headers: { authorization: `Basic ${Buffer.from(`${FORM_USER}:${FORM_PASSWORD}`).toString('base64')}` } });
      expect(third.status).toBe(200);
      const [failedMail] = await smtp.waitFor((message) => message.to.includes('ops@acme.example'), 1, 60_000).catch((error: Error) => {
        throw new Error(`${error.message}\n${server.output().slice(-3000)}`);
      });
      expect(failedMail!.subject).toBe('We could not generate your Incident Response Plan');
      expect(failedMail!.text).toContain('(insufficient_balance)');
      expect(failedMail!.attachments).toEqual([]);

      // Nothing fired at the first activation: balance above the threshold, review not yet due.
      expect(smtp.messages.slice(mailsBefore).map((message) => message.subject)).toEqual([mail!.subject, docxMail!.subject, failedMail!.subject]);
    } finally {
      await server.stop();
    }
    for (const secret of [LIVE_KEY, FORM_PASSWORD]) expect(server.output()).not.toContain(secret);

    // The form's discoveries and generations were charged: the balance is now under 7 days.
    const billing = await api<{ balanceTokens: number; meter: { estimatedDaysRemaining: number } }>(LIVE_KEY, 'GET', '/billing');
    expect(billing.balanceTokens).toBeLessThanOrEqual(LIVE_BALANCE - 2 * 170_000 - 20_000);

    // Once the review date has passed, the next activation poll fires both triggers.
    await delay(Math.max(0, reviewAt.getTime() + 1_000 - Date.now()));
    started = Date.now();
    server = await n8n.start();
    try {
      const balance = await smtp.waitFor((message) => message.subject.startsWith('Compliance API balance low'), 1, 60_000);
      const review = await smtp.waitFor((message) => message.subject.startsWith('Compliance review due'), 1, 60_000);
      timings.secondStartToReminders = Date.now() - started;
      expect(balance[0]!.to).toEqual(['compliance-team@example.com']);
      expect(balance[0]!.subject).toBe(`Compliance API balance low: about ${billing.meter.estimatedDaysRemaining.toFixed(1)} days left`);
      expect(balance[0]!.text).toMatch(new RegExp(`Top up with pack25: ${sandbox.origin.replace(/[.]/g, '\\.')}/_sandbox/checkout/\\w+`));
      expect(review[0]!.subject).toBe(`Compliance review due ${reviewAt.toISOString().slice(0, 10)}`);
      expect(review[0]!.text).toContain('Your monthly compliance review was due');
      expect(review[0]!.text).toContain('- refresh changed documents in the library');
      await delay(2_000);
    } finally {
      await server.stop();
    }
    // Each event once.
    expect(smtp.messages.filter((message) => /^Compliance (API balance low|review due)/.test(message.subject))).toHaveLength(2);
  }, 600_000);

  it('every template is stored by n8n as shipped, with node types and versions this n8n has; the agent\'s tools are the tool n8n builds from the Compliance node', async () => {
    const ids = { 'review-loop.json': IDS.review, 'discover-and-generate.json': IDS.discover, 'balance-and-review-reminders.json': IDS.reminders, 'library-qa-agent.json': IDS.agent };
    const versions = new Map<string, number[]>();
    for (const [prefix, file] of [['n8n-nodes-base', 'n8n-nodes-base/dist/types/nodes.json'], ['@n8n/n8n-nodes-langchain', '@n8n/n8n-nodes-langchain/dist/types/nodes.json']] as const) {
      for (const description of JSON.parse(readFileSync(join(n8nModules, file), 'utf8')) as Array<{ name: string; version: number | number[] }>) {
        const name = `${prefix}.${description.name}`;
        versions.set(name, [...(versions.get(name) ?? []), ...[description.version].flat()]);
      }
    }
    // The package as n8n loaded it (the installed copy in the user folder), and n8n's own tool conversion.
    const requireInstalled = createRequire(join(n8n.userFolder, '.n8n/nodes/node_modules/n8n-nodes-compliance/package.json'));
    const { Compliance } = requireInstalled('./dist/nodes/Compliance/Compliance.node.js') as { Compliance: new () => { nodeVersions: Record<number, { description: { name: string; properties: Array<{ name: string }> } }> } };
    const { convertNodeToAiTool } = createRequire(join(n8nModules, 'n8n/package.json'))('./dist/tool-generation/ai-tools.js') as {
      convertNodeToAiTool: (item: { description: unknown }) => { description: { name: string; outputs: string[]; properties: Array<{ name: string }> } };
    };
    const tool = convertNodeToAiTool({ description: structuredClone(new Compliance().nodeVersions[1]!.description) }).description;
    expect(tool.name).toBe('complianceTool');
    expect(tool.outputs).toEqual(['ai_tool']);
    versions.set('n8n-nodes-compliance.compliance', [1, 2]);
    versions.set('n8n-nodes-compliance.complianceTrigger', [1]);
    versions.set('n8n-nodes-compliance.complianceTool', [1]);

    for (const file of TEMPLATE_FILES) {
      const template = loadTemplate(file);
      for (const node of template.nodes) expect(versions.get(node.type) ?? [], `${file}: ${node.name} (${node.type} v${node.typeVersion})`).toContain(node.typeVersion);
      const exported = await n8n.run(['export:workflow', `--id=${ids[file]}`]);
      expect(exported.exitCode, exported.stderr).toBe(0);
      const stored = (JSON.parse(exported.stdout.slice(exported.stdout.indexOf('['))) as Template[])[0]!;
      const shape = (workflow: Template) => ({ nodes: workflow.nodes.map(({ name, type, typeVersion, parameters, credentials }) => ({ name, type, typeVersion, parameters, credentials })), connections: workflow.connections });
      // As shipped; the review loop with its schedule swapped for a manual trigger, nothing else.
      const expected = file === 'review-loop.json' ? withManualTrigger(template, 'Every Quarter', IDS.review) : template;
      expect(shape(stored)).toEqual(shape(expected));
    }
    const propertyNames = new Set(tool.properties.map((property) => property.name));
    for (const node of loadTemplate('library-qa-agent.json').nodes.filter((candidate) => candidate.type === 'n8n-nodes-compliance.complianceTool')) {
      for (const name of Object.keys(node.parameters)) expect(propertyNames.has(name), `${node.name}: ${name}`).toBe(true);
    }
  }, 120_000);
});
