/**
 * Executing a sync plan: deletes first (they free library capacity), then refreshes and ingests
 * with bounded concurrency; pacing to the rate limit is the client's job. Every file gets a result
 * saying what was done and what it cost, also when the run cannot finish.
 */
import type { ComplianceApi } from '../api/clientTypes.js';
import { ComplianceApiError, ComplianceError, ComplianceJobError } from '../api/errors.js';
import type { KeyMode } from '../api/schemas/common.js';
import { forEachConcurrent } from './concurrency.js';
import { ReviewError } from './errors.js';
import type { SyncItem, SyncItemKind, SyncPlan } from './syncPlan.js';

type SyncOutcome =
  | 'ingested'
  | 'refreshed'
  | 'deleted'
  /** Nothing to do: unchanged, renamed, or removed without --delete-removed. */
  | 'kept'
  /** Not sent, by the plan (duplicate, outside size limits) or refused by the service before charging. */
  | 'skipped'
  | 'failed'
  /** Not started: the run stopped first (library full, aborted, a key or balance error). */
  | 'not-attempted'
  /** Dry run: what would happen. */
  | 'planned';

interface SyncFileResult {
  kind: SyncItemKind;
  path: string;
  documentId: string | undefined;
  outcome: SyncOutcome;
  tokensSpent: number;
  /** Library version after a refresh, when the service reports it. */
  version?: number;
  message: string;
  error?: { code: string; message: string };
  /** The request may have been charged although no result arrived (outcome_unknown). */
  chargeUncertain?: boolean;
  /** Live-price tokens this file was or may have been charged: what a cap counts, in both modes. */
  pricedTokens?: number;
}

interface SyncRunOptions {
  /** The key's mode (ping): sandbox keys are never charged. */
  mode: KeyMode;
  concurrency?: number;
  dryRun?: boolean;
  onProgress?: (event: { done: number; total: number; result: SyncFileResult }) => void;
  signal?: AbortSignal;
}

export interface SyncRunResult {
  dryRun: boolean;
  mode: KeyMode;
  results: SyncFileResult[];
  tokensSpent: number;
  /** Live-price tokens charged or possibly charged (SyncFileResult.pricedTokens): what a cap counts. */
  pricedTokens: number;
  /** Every planned action was carried out. */
  complete: boolean;
  /** Why the run stopped early, when it did. */
  stoppedBecause: string | undefined;
}

const FATAL_STATUSES = new Set([401, 402, 403]);

function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof ComplianceError) return { code: error.code, message: error.toDisplayString() };
  if (error instanceof Error && error.name === 'AbortError') return { code: 'aborted', message: 'aborted' };
  return { code: 'unexpected', message: error instanceof Error ? error.message : String(error) };
}

function restingResult(item: SyncItem, dryRun: boolean): SyncFileResult | undefined {
  const base = { kind: item.kind, path: item.path, tokensSpent: 0 };
  switch (item.kind) {
    case 'unchanged':
      return { ...base, documentId: item.documentId, outcome: 'kept', message: 'unchanged' };
    case 'renamed':
      return { ...base, documentId: item.documentId, outcome: 'kept', message: item.libraryPath ? `renamed from ${item.libraryPath}: same text, nothing charged (the library keeps the old path)` : `same text as library document ${item.documentId} (ingested without a file name): nothing charged` };
    case 'duplicate':
      return { ...base, documentId: item.documentId, outcome: 'skipped', message: `same text as ${item.sameAs}: not sent (the service refuses duplicates)` };
    case 'invalid':
      return { ...base, documentId: undefined, outcome: 'skipped', message: item.reason };
    case 'removed':
      if (!item.delete) return { ...base, documentId: item.documentId, outcome: 'kept', message: 'no longer in the repository; kept (use --delete-removed to delete it)' };
      return dryRun ? { ...base, documentId: item.documentId, outcome: 'planned', message: 'would delete (free)' } : undefined;
    case 'new':
      return dryRun ? { ...base, documentId: undefined, outcome: 'planned', message: `would ingest (${item.tokens.toLocaleString('en-US')} tokens in live mode)` } : undefined;
    case 'changed':
      return dryRun ? { ...base, documentId: item.documentId, outcome: 'planned', message: `would refresh (${item.tokens.toLocaleString('en-US')} tokens in live mode)` } : undefined;
    case 'needs-content':
      return undefined;
  }
}

export async function runSync(client: ComplianceApi, plan: SyncPlan, options: SyncRunOptions): Promise<SyncRunResult> {
  if (plan.needsContent.length > 0) {
    throw new ReviewError('invalid_report', 'the sync plan is not final: resolve it first (resolveSyncPlan fetches the missing text, free)');
  }
  const dryRun = options.dryRun ?? false;
  const results = new Map<SyncItem, SyncFileResult>();
  const total = plan.items.length;
  let stoppedBecause: string | undefined;
  const record = (item: SyncItem, result: SyncFileResult) => {
    results.set(item, result);
    options.onProgress?.({ done: results.size, total, result });
  };

  const actions: SyncItem[] = [];
  for (const item of plan.items) {
    const resting = restingResult(item, dryRun);
    if (resting) record(item, resting);
    else actions.push(item);
  }
  const charge = (tokens: number) => (options.mode === 'live' ? tokens : 0);
  let libraryFull = false;

  const execute = async (item: SyncItem) => {
    if (stoppedBecause || (libraryFull && item.kind === 'new')) {
      record(item, {
        kind: item.kind, path: item.path, documentId: 'documentId' in item ? item.documentId : undefined,
        outcome: 'not-attempted', tokensSpent: 0,
        message: stoppedBecause ?? 'not ingested: the library is full (delete documents first, for example with --delete-removed)',
      });
      return;
    }
    // Set once the service admitted a charged request: from then on the charge stands unless the job fails.
    let admittedJob: string | undefined;
    try {
      if (item.kind === 'removed') {
        await client.deleteLibraryDocument({ id: item.documentId }, { signal: options.signal });
        record(item, { kind: item.kind, path: item.path, documentId: item.documentId, outcome: 'deleted', tokensSpent: 0, message: 'deleted (free)' });
      } else if (item.kind === 'changed') {
        const accepted = await client.refreshLibraryDocument({ id: item.documentId, content: plan.contents.get(item.path) ?? '' }, { signal: options.signal });
        admittedJob = accepted.jobId;
        await client.waitForJob(accepted.jobId, { signal: options.signal, estimatedSeconds: accepted.estimatedSeconds });
        record(item, {
          kind: item.kind, path: item.path, documentId: item.documentId, outcome: 'refreshed', tokensSpent: charge(item.tokens), pricedTokens: item.tokens,
          ...(accepted.version !== undefined ? { version: accepted.version } : {}),
          message: 'refreshed',
        });
      } else if (item.kind === 'new') {
        const accepted = await client.ingestLibraryDocument(
          {
            title: item.title,
            content: plan.contents.get(item.path) ?? '',
            filename: item.path,
            tags: item.tags,
            ...(item.category ? { category: item.category } : {}),
          },
          { signal: options.signal },
        );
        admittedJob = accepted.jobId;
        const job = await client.waitForJob(accepted.jobId, { signal: options.signal, estimatedSeconds: accepted.estimatedSeconds });
        record(item, { kind: item.kind, path: item.path, documentId: accepted.documentId ?? job.documentId, outcome: 'ingested', tokensSpent: charge(item.tokens), pricedTokens: item.tokens, message: 'ingested' });
      }
    } catch (error) {
      record(item, failure(item, error, admittedJob, charge(item.tokens), item.tokens));
      if (error instanceof ComplianceApiError && error.code === 'library_full') libraryFull = true;
      if (error instanceof ComplianceApiError && error.status !== undefined && FATAL_STATUSES.has(error.status)) {
        stoppedBecause = `stopped after ${error.code}: ${error.message}`;
      }
    }
  };

  if (!dryRun) {
    const deletes = actions.filter((item) => item.kind === 'removed');
    const uploads = actions.filter((item) => item.kind !== 'removed');
    const concurrency = options.concurrency ?? 4;
    await forEachConcurrent(deletes, concurrency, execute, options.signal);
    await forEachConcurrent(uploads, concurrency, execute, options.signal);
  }
  if (options.signal?.aborted) stoppedBecause ??= 'aborted';
  for (const item of plan.items) {
    if (!results.has(item)) {
      record(item, {
        kind: item.kind, path: item.path, documentId: 'documentId' in item ? item.documentId : undefined,
        outcome: 'not-attempted', tokensSpent: 0, message: stoppedBecause ?? 'not attempted',
      });
    }
  }

  const ordered = plan.items.map((item) => results.get(item) as SyncFileResult);
  return {
    dryRun,
    mode: options.mode,
    results: ordered,
    tokensSpent: ordered.reduce((sum, result) => sum + result.tokensSpent, 0),
    pricedTokens: ordered.reduce((sum, result) => sum + (result.pricedTokens ?? 0), 0),
    complete: ordered.every((result) => result.outcome !== 'failed' && result.outcome !== 'not-attempted'),
    stoppedBecause: stoppedBecause ?? (libraryFull ? 'the library is full' : undefined),
  };
}

function failure(item: SyncItem, error: unknown, admittedJob: string | undefined, price: number, livePrice: number): SyncFileResult {
  const described = describeError(error);
  const base = { kind: item.kind, path: item.path, documentId: 'documentId' in item ? item.documentId : undefined, tokensSpent: 0, error: described };
  if (admittedJob !== undefined && !(error instanceof ComplianceJobError)) {
    return {
      ...base, tokensSpent: price, pricedTokens: livePrice, outcome: 'failed',
      message: `submitted as job ${admittedJob} but waiting for it failed (${described.message}); it is charged unless the job fails (then refunded)`,
    };
  }
  if (error instanceof ComplianceApiError && error.code === 'duplicate_document') {
    const holder = typeof error.details.documentId === 'string' ? ` (document ${error.details.documentId})` : '';
    return { ...base, outcome: 'skipped', message: `the library already holds this text${holder}: not ingested, nothing charged` };
  }
  // Another run (the library sync and the scheduled review have separate concurrency groups)
  // refreshed this document first: the service refuses the second refresh before charging it.
  if (error instanceof ComplianceApiError && error.code === 'document_unchanged') {
    // The refusal is the outcome here, not an error of the document.
    const { error: refusal, ...rest } = base;
    void refusal;
    return { ...rest, outcome: 'kept', message: 'the library already holds this text (another run refreshed it meanwhile): nothing charged' };
  }
  if (error instanceof ComplianceApiError && error.code === 'document_busy') {
    return { ...base, outcome: 'skipped', message: 'another run is refreshing this document right now: not sent, nothing charged; the next sync refreshes it if its text still differs' };
  }
  if (error instanceof ComplianceApiError && error.code === 'library_full') {
    return { ...base, outcome: 'failed', message: 'the library is full: not ingested, nothing charged; delete documents first' };
  }
  if (error instanceof ComplianceJobError) {
    return { ...base, outcome: 'failed', message: `the ${item.kind === 'new' ? 'ingest' : 'refresh'} job failed (${described.message}); the charge is refunded` };
  }
  if (error instanceof ComplianceApiError && error.code === 'outcome_unknown') {
    return { ...base, outcome: 'failed', chargeUncertain: true, pricedTokens: livePrice, message: `no answer arrived, it may have been charged: ${described.message}` };
  }
  return { ...base, outcome: 'failed', message: described.message };
}
