/**
 * Shared pieces of the hardening suites: the sandbox as a real subprocess of the built CLI
 * (`compliance sandbox --data DIR --faults`, so it can be killed with SIGKILL and restarted on the
 * same port and data), a fault-injecting loopback proxy between a client and the sandbox, a
 * generated policy repo, and an audit of the sandbox's own ledger and job table read straight
 * from its SQLite file.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import { contentHash } from '../../api/contentHash.js';
import { CLI as BUILT_CLI, ROOT } from '../cli/helpers.js';
import { collect, registerSecret } from './leaks.js';

/**
 * A private copy of the built CLI bundle: other suites rebuild dist/cli while these run, so the
 * hardening runs use a copy of dist/cli (the bin, main.mjs and its chunks) and dist/workers (the
 * upload worker the sandbox finds beside them), taken right after their own build.
 */
export const CLI = join(tmpdir(), `hardening-cli-${process.pid}`, 'cli', 'compliance.cjs');
let copied = false;
export function buildCli(): void {
  if (copied) return;
  for (let attempt = 1; ; attempt++) {
    try {
      execFileSync(process.execPath, ['scripts/build.mjs', 'cli'], { cwd: ROOT, stdio: 'pipe' });
      cpSync(dirname(BUILT_CLI), dirname(CLI), { recursive: true });
      cpSync(join(ROOT, 'dist/workers'), join(dirname(CLI), '..', 'workers'), { recursive: true });
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
  copied = true;
}
export const PRICE = 400_000;
/** The document count of the fault suite (the 100); HARDENING_DOCS lowers it on a slow machine. */
export const DOC_COUNT = Number(process.env.HARDENING_DOCS ?? 100);

/* ---------------- the sandbox as a subprocess ---------------- */

export interface SandboxProcess {
  baseUrl: string;
  origin: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** SIGKILL: no shutdown code runs. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export interface SandboxProcessOptions {
  keys: string[];
  dataDir?: string;
  port?: number;
  faults?: boolean;
  jobSeconds?: number;
  rateLimit?: number;
  label?: string;
}

export async function startSandboxProcess(options: SandboxProcessOptions): Promise<SandboxProcess> {
  buildCli();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'hardening-data-'));
  for (const key of options.keys) registerSecret(key.split(':')[0]!);
  const args = [
    CLI, 'sandbox', '--json', '--port', String(options.port ?? 0), '--data', dataDir,
    '--job-seconds', String(options.jobSeconds ?? 0), '--rate-limit', String(options.rateLimit ?? 1_000_000),
    ...(options.faults === false ? [] : ['--faults']),
    ...options.keys.flatMap((key) => ['--key', key]),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
  const label = options.label ?? 'sandbox';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    collect(`${label} stderr`, chunk);
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${stderr}`)));
  });
  // The start line carries the keys by design (it is how a user learns a generated key): it is the
  // one place they may appear, so it is checked for shape and not fed to the leak scan.
  const started = JSON.parse(first) as { baseUrl: string };
  lines.on('line', (line) => collect(`${label} stdout`, line));
  const url = new URL(started.baseUrl);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    baseUrl: started.baseUrl,
    origin: url.origin,
    port: Number(url.port),
    dataDir,
    child,
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/* ---------------- the fault-injecting proxy ---------------- */

export type FaultAction =
  | { kind: 'forward'; fault?: string }
  /** The proxy itself answers an nginx-style HTML 502 without forwarding. */
  | { kind: 'proxy-html502' }
  /** The proxy drops the client's connection without forwarding. */
  | { kind: 'proxy-reset' }
  /** The proxy forwards, lets the upstream finish, then drops the client's connection (a lost answer). */
  | { kind: 'proxy-lost-answer' };

export interface ProxiedRequest {
  method: string;
  path: string;
  /** 1-based index of this request among all requests the proxy saw. */
  n: number;
  /** 1-based index among requests with the same method and path prefix group (POST /library/documents, …). */
  nOfKind: number;
  /** 1-based attempt number of this exact request (method, path, body). */
  attempt: number;
  /** What the proxy did to the previous attempt of this exact request ('forward', 'fault:500', …). */
  previousAction?: string;
}

export interface FaultLogEntry {
  method: string;
  path: string;
  action: string;
  status: number | 'reset' | 'upstream-down';
}

/** The request's kind for schedules: the method and the path with ids replaced. */
export function kindOf(method: string, path: string): string {
  return `${method} ${path.replace(/\?.*$/, '').replace(/\/api\/public\/v1/, '').replace(/[0-9a-f-]{36}|doc_[0-9a-f]+/g, ':id')}`;
}

export class FaultProxy {
  readonly log: FaultLogEntry[] = [];
  #server: Server;
  #sockets = new Set<Socket>();
  #n = 0;
  #kinds = new Map<string, number>();
  #attempts = new Map<string, number>();
  #lastActions = new Map<string, string>();
  url = '';

  constructor(
    public upstream: string,
    public schedule: (request: ProxiedRequest) => FaultAction = () => ({ kind: 'forward' }),
  ) {
    this.#server = createServer((req, res) => void this.#handle(req, res));
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  get baseUrl(): string {
    return `${this.url}/api/public/v1`;
  }

  /** How many requests got each action other than a plain forward. */
  injected(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const entry of this.log) if (entry.action !== 'forward') counts[entry.action] = (counts[entry.action] ?? 0) + 1;
    return counts;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const kind = kindOf(method, path);
    const identity = `${method} ${path} ${createHash('sha256').update(body).digest('hex')}`;
    const attempt = (this.#attempts.get(identity) ?? 0) + 1;
    this.#attempts.set(identity, attempt);
    const nOfKind = (this.#kinds.get(kind) ?? 0) + 1;
    this.#kinds.set(kind, nOfKind);
    const action = this.schedule({ method, path, n: ++this.#n, nOfKind, attempt, previousAction: this.#lastActions.get(identity) });
    const label = action.kind === 'forward' ? (action.fault ? `fault:${action.fault}` : 'forward') : action.kind;
    this.#lastActions.set(identity, label);
    if (action.kind === 'proxy-reset') {
      this.log.push({ method, path, action: label, status: 'reset' });
      req.socket.destroy();
      return;
    }
    if (action.kind === 'proxy-html502') {
      this.log.push({ method, path, action: label, status: 502 });
      res.writeHead(502, { 'content-type': 'text/html', server: 'nginx' });
      res.end('<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n');
      return;
    }
    const target = new URL(path, this.upstream);
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: target.host, 'content-length': String(body.length) };
    delete headers['transfer-encoding'];
    if (action.kind === 'forward' && action.fault) headers['x-sandbox-fault'] = action.fault;
    const upstream = httpRequest(target, { method, headers, agent: false }, (answer) => {
      this.log.push({ method, path, action: label, status: answer.statusCode ?? 0 });
      if (action.kind === 'proxy-lost-answer') {
        answer.resume();
        answer.on('end', () => req.socket.destroy());
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', () => {
      // The sandbox dropped the connection (reset fault) or is down: the client sees its connection drop.
      this.log.push({ method, path, action: label, status: 'upstream-down' });
      req.socket.destroy();
    });
    upstream.end(body);
  }
}

/* ---------------- a generated policy repo ---------------- */

const TOPICS = [
  'access control', 'incident response', 'backup', 'encryption', 'vendor management', 'business continuity', 'asset management',
  'logging and monitoring', 'change management', 'secure development', 'data retention', 'physical security', 'risk assessment',
  'security awareness training', 'password management', 'network security', 'mobile devices', 'remote work', 'privacy', 'acceptable use',
];

/** Policy text number `i` (version `v`): distinct per i and v, realistic prose, well over 200 characters. */
export function policyContent(i: number, v = 1): string {
  const topic = TOPICS[i % TOPICS.length]!;
  return [
    `# ${topic[0]!.toUpperCase()}${topic.slice(1)} policy ${i}`,
    '',
    `Policy ${i}, revision ${v}. This policy sets out how Acme protects information assets in the area of ${topic}. It applies to all staff, contractors and systems in scope ${i}.`,
    '',
    '## Requirements',
    '',
    `Access to systems for ${topic} is granted on least privilege and reviewed every quarter by the system owner. Exceptions are recorded in the risk register with an owner and an expiry date (reference ${i}-${v}).`,
    '',
    'Security incidents are reported to the security team within one hour. Backups are encrypted, tested monthly and kept for ninety days.',
    '',
  ].join('\n');
}

export const policyPath = (i: number) => `policies/policy-${String(i).padStart(3, '0')}.md`;

export const SYNC_ONLY_CONFIG = 'repository: acme/policies\ndocuments:\n  - name: policies\n    paths: ["policies/*.md"]\n    category: Policies\n';

/** A temp repo with `count` policies and a compliance.yml (sync only unless `config` says more). */
export function policyRepo(count: number, config = SYNC_ONLY_CONFIG): string {
  const root = mkdtempSync(join(tmpdir(), 'hardening-repo-'));
  mkdirSync(join(root, 'policies'));
  for (let i = 0; i < count; i++) writeFileSync(join(root, policyPath(i)), policyContent(i));
  writeFileSync(join(root, 'compliance.yml'), config);
  return root;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/* ---------------- audit: library and ledger ---------------- */

export interface LibraryDoc {
  id: string;
  title: string;
  filename: string;
  contentHash: string;
  version: number;
  status: string;
}

/** Every document of the key's library, straight from the sandbox (not through any proxy). */
export async function libraryOf(baseUrl: string, key: string): Promise<LibraryDoc[]> {
  const documents: LibraryDoc[] = [];
  let cursor: string | null | undefined;
  do {
    const url = new URL(`${baseUrl}/library`);
    url.searchParams.set('limit', '100');
    if (cursor) url.searchParams.set('cursor', cursor);
    const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    const body = (await response.json()) as { documents: LibraryDoc[]; nextCursor?: string | null };
    if (response.status !== 200) throw new Error(`GET /library answered ${response.status}`);
    documents.push(...body.documents);
    cursor = body.nextCursor;
  } while (cursor);
  return documents;
}

/** The library equals the repo: one document per file, same filename, title and content hash; nothing else. */
export function compareLibraryToRepo(documents: LibraryDoc[], files: Map<string, string>): string[] {
  const problems: string[] = [];
  const byFilename = new Map<string, LibraryDoc[]>();
  for (const doc of documents) byFilename.set(doc.filename, [...(byFilename.get(doc.filename) ?? []), doc]);
  for (const [path, content] of files) {
    const docs = byFilename.get(path) ?? [];
    if (docs.length !== 1) problems.push(`${path}: ${docs.length} library documents`);
    const doc = docs[0];
    if (!doc) continue;
    if (doc.contentHash !== contentHash(content)) problems.push(`${path}: library hash ${doc.contentHash} differs from the repo's ${contentHash(content)}`);
    const heading = /^# (.+)$/m.exec(content)?.[1];
    if (heading && doc.title !== heading) problems.push(`${path}: title ${JSON.stringify(doc.title)} is not ${JSON.stringify(heading)}`);
    if (doc.status !== 'ready') problems.push(`${path}: status ${doc.status}`);
  }
  for (const doc of documents) if (!files.has(doc.filename)) problems.push(`library holds ${doc.filename} (${doc.id}), not in the repo`);
  const hashes = new Map<string, number>();
  for (const doc of documents) hashes.set(doc.contentHash, (hashes.get(doc.contentHash) ?? 0) + 1);
  for (const [hash, count] of hashes) if (count > 1) problems.push(`${count} documents share ${hash}`);
  return problems;
}

export function readRepo(root: string, count: number): Map<string, string> {
  const files = new Map<string, string>();
  for (let i = 0; i < count; i++) files.set(policyPath(i), readFileSync(join(root, policyPath(i)), 'utf8'));
  return files;
}

export interface LedgerRow {
  seq: number;
  operation: string;
  tokens: number;
  balanceAfter: number;
  reference: string | null;
  jobKind: string | null;
  jobStatus: string | null;
  documentId: string | null;
}

/** The key's whole ledger with each entry's job, from the sandbox's database (the API shows the recent 50). */
export function ledgerOf(dataDir: string, key: string): { rows: LedgerRow[]; balance: number } {
  const db = new DatabaseSync(join(dataDir, 'sandbox.sqlite'), { readOnly: true });
  try {
    const keyHash = createHash('sha256').update(key).digest('hex');
    const rows = (db
      .prepare(
        `SELECT l.seq, l.operation, l.tokens, l.balance_after, l.reference, j.kind, j.final_status, j.document_id
           FROM sbx_ledger l LEFT JOIN sbx_jobs j ON j.id = l.reference WHERE l.key_hash = ? ORDER BY l.seq`,
      )
      .all(keyHash) as Array<Record<string, string | number | null>>)
      .map((row) => ({
        seq: Number(row.seq),
        operation: String(row.operation),
        tokens: Number(row.tokens),
        balanceAfter: Number(row.balance_after),
        reference: row.reference === null ? null : String(row.reference),
        jobKind: row.kind === null ? null : String(row.kind),
        jobStatus: row.final_status === null ? null : String(row.final_status),
        documentId: row.document_id === null ? null : String(row.document_id),
      }));
    const account = db.prepare('SELECT balance FROM sbx_accounts WHERE key_hash = ?').get(keyHash) as { balance: number };
    return { rows, balance: Number(account.balance) };
  } finally {
    db.close();
  }
}

export interface LedgerAudit {
  problems: string[];
  charges: number;
  refunds: number;
  /** Charges per operation (refunded ones included). */
  chargesByOperation: Record<string, number>;
  /** Net charges (not refunded) per document id and kind. */
  netByDocument: Map<string, { ingest: number; refresh: number }>;
}

/**
 * Every charge is a library ingest or refresh with its own job; every refund refers to a charged job
 * that failed, once; a failed job is refunded; the balance is the opening balance plus the ledger.
 */
export function auditLedger(dataDir: string, key: string, openingBalance: number): LedgerAudit {
  const { rows, balance } = ledgerOf(dataDir, key);
  const problems: string[] = [];
  const charged = new Map<string, LedgerRow>();
  const refunded = new Set<string>();
  let running = openingBalance;
  for (const row of rows) {
    running += row.tokens;
    if (row.balanceAfter !== running) problems.push(`ledger ${row.seq}: balanceAfter ${row.balanceAfter}, expected ${running}`);
    if (row.operation === 'ingestLibraryDocument' || row.operation === 'refreshLibraryDocument') {
      if (row.tokens !== -PRICE) problems.push(`ledger ${row.seq}: ${row.operation} charged ${row.tokens}`);
      if (!row.reference || !row.jobKind) problems.push(`ledger ${row.seq}: charge without a job`);
      else if (charged.has(row.reference)) problems.push(`ledger ${row.seq}: second charge for job ${row.reference}`);
      else charged.set(row.reference, row);
    } else if (row.operation === 'mapDocument' || row.operation === 'generateDocument') {
      if (!row.reference || !row.jobKind) problems.push(`ledger ${row.seq}: ${row.operation} charge without a job`);
      else charged.set(row.reference, row);
    } else if (row.operation === 'refund') {
      const charge = row.reference ? charged.get(row.reference) : undefined;
      if (!charge) problems.push(`ledger ${row.seq}: refund of ${row.reference} without a charge`);
      else if (refunded.has(row.reference!)) problems.push(`ledger ${row.seq}: second refund of ${row.reference}`);
      else if (row.tokens !== -charge.tokens) problems.push(`ledger ${row.seq}: refund of ${row.tokens} for a charge of ${charge.tokens}`);
      else if (charge.jobStatus !== 'failed') problems.push(`ledger ${row.seq}: refund of job ${row.reference} that is ${charge.jobStatus}`);
      refunded.add(row.reference ?? '');
    } else {
      problems.push(`ledger ${row.seq}: unexpected ${row.operation} of ${row.tokens}`);
    }
  }
  if (running !== balance) problems.push(`balance ${balance} is not opening ${openingBalance} + ledger = ${running}`);
  const netByDocument = new Map<string, { ingest: number; refresh: number }>();
  for (const [jobId, charge] of charged) {
    if (charge.jobStatus === 'failed' && !refunded.has(jobId)) problems.push(`job ${jobId} failed but was not refunded`);
    if (charge.jobStatus !== 'completed' && charge.jobStatus !== 'failed') problems.push(`job ${jobId} is still ${charge.jobStatus ?? 'open'}`);
    if (refunded.has(jobId) || (charge.operation !== 'ingestLibraryDocument' && charge.operation !== 'refreshLibraryDocument')) continue;
    const entry = netByDocument.get(charge.documentId ?? '?') ?? { ingest: 0, refresh: 0 };
    if (charge.operation === 'ingestLibraryDocument') entry.ingest++;
    else entry.refresh++;
    netByDocument.set(charge.documentId ?? '?', entry);
  }
  const chargesByOperation: Record<string, number> = {};
  for (const charge of charged.values()) chargesByOperation[charge.operation] = (chargesByOperation[charge.operation] ?? 0) + 1;
  return { problems, charges: charged.size, refunds: refunded.size, chargesByOperation, netByDocument };
}
