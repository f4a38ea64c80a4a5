/**
 * What the Compliance Trigger detects, as functions of (client, the saved cursor, now): each
 * returns the events to emit and the cursor to save. Nothing is kept in memory between polls: the
 * cursor lives in the workflow's static data, so a restart resumes where the last saved poll ended,
 * and every event has a key that is remembered, so a repeated poll never emits it twice.
 */
import type { IDataObject } from 'n8n-workflow';
import type { ComplianceApi } from '../../api/clientTypes.js';
import type { LibraryDocumentModel } from '../../api/normalize/library.js';

export type TriggerEvent = 'reviewDue' | 'balanceLow' | 'frameworkUpdated' | 'libraryDocumentChanged';

export interface TriggerState {
  /** Keys of events already emitted (most recent last, bounded). */
  seen?: string[];
  /** reviewDue: the next review date seen on the last poll. */
  review?: { nextReviewAt: string | null };
  /** balanceLow: whether the balance was under the threshold on the last poll, and dips counted. */
  balance?: { low: boolean; dips: number };
  /** frameworkUpdated: update keys already known per slug. */
  frameworks?: Record<string, string[]>;
  /** libraryDocumentChanged: the last snapshot of the library. */
  library?: Record<string, { version: number; contentHash: string | null; updatedAt: string | null; title: string }>;
}

export interface TriggerParameters {
  event: TriggerEvent;
  thresholdDays?: number;
  frameworks?: string[];
  category?: string;
}

interface EventItem extends IDataObject {
  event: TriggerEvent;
  /** The deduplication key: one event, one key. */
  eventKey: string;
}

interface DetectResult {
  events: EventItem[];
  state: TriggerState;
  /** For "Fetch Test Event": the latest event of this kind even when nothing new happened. */
  sample?: EventItem;
  /** For "Fetch Test Event" with nothing to show: why, and how to change that. */
  emptyBecause?: { message: string; fix: string };
}

const MAX_SEEN = 2000;
const MAX_UPDATE_KEYS = 500;

type Api = Pick<ComplianceApi, 'getCalendar' | 'getBilling' | 'getFramework' | 'listLibrary'> & {
  listAllLibraryDocuments(filter?: { category?: string }): Promise<LibraryDocumentModel[]>;
};

function data(value: unknown): IDataObject {
  return value as IDataObject;
}

async function reviewDue(api: Api, state: TriggerState, now: number): Promise<DetectResult> {
  const calendar = await api.getCalendar();
  const next = calendar.nextReviewAt ?? null;
  // The review that was next on the last poll counts too: the service moves nextReviewAt on once
  // the date passes, and a poll that comes late must not miss the review in between.
  const candidates = [...new Set([state.review?.nextReviewAt ?? null, next].filter((at): at is string => typeof at === 'string'))];
  const item = (at: string, due: boolean): EventItem => ({
    event: 'reviewDue',
    eventKey: `reviewDue:${new Date(at).toISOString()}`,
    reviewAt: at,
    due,
    cadence: calendar.cadence,
    nextReviewAt: next,
    calendar: data(calendar),
  });
  const events = candidates.filter((at) => Date.parse(at) <= now).map((at) => item(at, true));
  return {
    events,
    state: { ...state, review: { nextReviewAt: next } },
    ...(events.length ? {} : next ? { sample: item(next, false) } : {}),
    ...(next
      ? {}
      : {
          emptyBecause: {
            message: `No review is scheduled: the review calendar's cadence is ${calendar.cadence ?? 'not set'}`,
            fix: 'Set a review cadence with the Compliance node (Calendar → Set, Cadence Monthly or Quarterly); this trigger then fires when the next review date is reached.',
          },
        }),
  };
}

async function balanceLow(api: Api, state: TriggerState, thresholdDays: number): Promise<DetectResult> {
  const billing = await api.getBilling();
  const days = billing.meter.estimatedDaysRemaining;
  const low = typeof days === 'number' && days < thresholdDays;
  const previous = state.balance ?? { low: false, dips: 0 };
  const dips = low && !previous.low ? previous.dips + 1 : previous.dips;
  const item: EventItem = {
    event: 'balanceLow',
    eventKey: `balanceLow:${dips}`,
    estimatedDaysRemaining: days ?? null,
    thresholdDays,
    balanceTokens: billing.balanceTokens,
    plan: billing.meter.plan,
    dailyRateTokens: billing.meter.dailyRateTokens ?? billing.meter.dailyFloorTokens,
    mode: billing.mode ?? null,
    autoTopUp: data(billing.autoTopUp ?? {}),
  };
  // One event per dip: it fires when the balance crosses under the threshold, and re-arms once it
  // is back above.
  const events = low && !previous.low ? [item] : [];
  return { events, state: { ...state, balance: { low, dips } }, sample: { ...item, low } };
}

function updateKey(slug: string, update: { date: string; title: string }): string {
  return `${slug}:${update.date}:${update.title}`;
}

async function frameworkUpdated(api: Api, state: TriggerState, slugs: string[]): Promise<DetectResult> {
  const known = { ...(state.frameworks ?? {}) };
  const events: EventItem[] = [];
  let sample: EventItem | undefined;
  for (const slug of slugs) {
    const framework = await api.getFramework({ slug });
    const updates = [...framework.updates].sort((a, b) => a.date.localeCompare(b.date));
    const item = (update: (typeof updates)[number]): EventItem => ({
      event: 'frameworkUpdated',
      eventKey: `frameworkUpdated:${updateKey(slug, update)}`,
      slug: framework.slug,
      framework: framework.name,
      update: data(update),
    });
    const latest = updates[updates.length - 1];
    if (latest && (!sample || String((sample.update as IDataObject).date) < latest.date)) sample = item(latest);
    const previous = known[slug];
    const keys = updates.map((update) => updateKey(slug, update));
    // The first poll of a slug records what exists; only later updates are events.
    if (previous !== undefined) {
      const old = new Set(previous);
      events.push(...updates.filter((update) => !old.has(updateKey(slug, update))).map(item));
    }
    known[slug] = [...new Set([...(previous ?? []), ...keys])].slice(-MAX_UPDATE_KEYS);
  }
  return { events, state: { ...state, frameworks: known }, ...(sample ? { sample } : {}) };
}

async function libraryDocumentChanged(api: Api, state: TriggerState, category?: string): Promise<DetectResult> {
  const documents = await api.listAllLibraryDocuments(category ? { category } : {});
  const previous = state.library;
  const snapshot: NonNullable<TriggerState['library']> = {};
  for (const document of documents) {
    snapshot[document.id] = {
      version: document.version,
      contentHash: document.contentHash ?? null,
      updatedAt: document.updatedAt ?? null,
      title: document.title,
    };
  }
  const item = (change: 'added' | 'updated' | 'removed', id: string, document?: LibraryDocumentModel): EventItem => {
    const entry = snapshot[id] ?? previous?.[id];
    return {
      event: 'libraryDocumentChanged',
      eventKey: `libraryDocumentChanged:${id}:${change === 'removed' ? 'removed' : 'present'}:${entry?.version ?? 0}:${entry?.contentHash ?? entry?.updatedAt ?? ''}`,
      change,
      documentId: id,
      title: entry?.title ?? id,
      version: entry?.version ?? null,
      contentHash: entry?.contentHash ?? null,
      updatedAt: entry?.updatedAt ?? null,
      ...(document ? { document: data(document) } : {}),
    };
  };
  const events: EventItem[] = [];
  if (previous !== undefined) {
    for (const document of documents) {
      const before = previous[document.id];
      const now = snapshot[document.id]!;
      if (!before) events.push(item('added', document.id, document));
      else if (before.version !== now.version || before.contentHash !== now.contentHash || before.updatedAt !== now.updatedAt) {
        events.push(item('updated', document.id, document));
      }
    }
    for (const id of Object.keys(previous)) if (!snapshot[id]) events.push(item('removed', id));
  }
  const newest = [...documents].sort((a, b) => String(b.updatedAt ?? '').localeCompare(String(a.updatedAt ?? '')))[0];
  return {
    events,
    state: { ...state, library: snapshot },
    ...(newest ? { sample: item('updated', newest.id, newest) } : {}),
  };
}

/** Detects the events of `parameters.event`, dropping any whose key was already emitted. */
export async function detect(api: Api, saved: TriggerState, parameters: TriggerParameters, now: number): Promise<DetectResult> {
  let result: DetectResult;
  switch (parameters.event) {
    case 'reviewDue':
      result = await reviewDue(api, saved, now);
      break;
    case 'balanceLow':
      result = await balanceLow(api, saved, parameters.thresholdDays ?? 7);
      break;
    case 'frameworkUpdated':
      result = await frameworkUpdated(api, saved, parameters.frameworks ?? []);
      break;
    case 'libraryDocumentChanged':
      result = await libraryDocumentChanged(api, saved, parameters.category);
      break;
  }
  const seen = new Set(saved.seen ?? []);
  const fresh: EventItem[] = [];
  for (const event of result.events) {
    if (seen.has(event.eventKey)) continue;
    seen.add(event.eventKey);
    fresh.push({ ...event, detectedAt: new Date(now).toISOString() });
  }
  return {
    events: fresh,
    state: { ...result.state, seen: [...seen].slice(-MAX_SEEN) },
    ...(result.sample ? { sample: { ...result.sample, detectedAt: new Date(now).toISOString() } } : {}),
    ...(result.emptyBecause ? { emptyBecause: result.emptyBecause } : {}),
  };
}
