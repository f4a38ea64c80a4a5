/**
 * Response shapes. The spec leaves many of them "not shown": these are the normalised models the
 * client returns (its adapters map documented names and plausible alternatives onto them) and the
 * concrete shapes the sandbox serves and documents in its OpenAPI description. Objects are loose:
 * fields beyond these are kept. Each is built on first use (lazy.ts): the sandbox's OpenAPI
 * document, the MCP tools and tests read them; the client never does.
 */
import * as z from 'zod/v4/mini';
import { CADENCES, FORMATS, JOB_STATUSES, KEY_MODES, PACK_CODES } from './common.js';
import { lazy, once } from './lazy.js';
import { withMeta } from './miniExtras.js';

const isoTime = once(() => withMeta(z.string(), { format: 'date-time' }));

export const errorEnvelope = lazy(() => z.object({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    hint: z.string(),
    requestId: z.string(),
  }),
}));

export const serviceCard = lazy(() => z.looseObject({
  name: z.string(),
  version: z.string(),
  description: z.optional(z.string()),
  endpoints: z.array(
    z.looseObject({ method: z.string(), path: z.string(), operationId: z.string(), public: z.boolean() }),
  ),
}));

export const openApiDocument = lazy(() => z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
}));

export const pingResult = lazy(() => z.looseObject({
  ok: z.boolean(),
  client: z.string(),
  mode: z.enum(KEY_MODES),
  time: z.optional(isoTime()),
}));

export const documentTypeInfo = lazy(() => z.looseObject({
  id: z.string(),
  title: z.string(),
  description: z.optional(z.string()),
}));

export const frameworkSummary = lazy(() => z.looseObject({
  slug: z.string(),
  name: z.string(),
  verified: z.boolean(),
}));

export const capabilities = lazy(() => z.looseObject({
  mode: z.enum(KEY_MODES),
  documentTypes: z.array(documentTypeInfo),
  formats: z.array(z.enum(FORMATS)),
  /** Values the spec states are always present; the others only when the service reports them. */
  limits: z.looseObject({
    requestsPerMinute: z.optional(z.number()),
    generationsPerDay: z.optional(z.number()),
    generationsPer30Days: z.optional(z.number()),
    concurrentGenerations: z.number(),
    libraryDocuments: z.optional(z.number()),
    libraryMinChars: z.number(),
    libraryMaxChars: z.number(),
    uploadMaxBytes: z.number(),
    uploadKinds: z.optional(z.array(z.string())),
    searchDefaultLimit: z.optional(z.number()),
    searchMaxLimit: z.optional(z.number()),
    autoTopUpMinThreshold: z.number(),
  }),
  /** Tokens per call for each priced operation id (live keys; sandbox keys are not charged). */
  prices: z.record(z.string(), z.number()),
  verifiedFrameworks: z.array(frameworkSummary),
}));

export const frameworkCandidate = lazy(() => z.looseObject({
  rank: z.number(),
  slug: z.optional(z.string()),
  name: z.string(),
  regulator: z.string(),
  jurisdiction: z.string(),
  sector: z.string(),
  sourceUrl: z.string(),
  /** 0..1 */
  confidence: z.number(),
  reasoning: z.string(),
  verified: z.optional(z.boolean()),
}));

export const suggestResult = lazy(() => z.looseObject({
  mode: z.enum(KEY_MODES),
  candidates: z.array(frameworkCandidate),
  warnings: z.optional(z.array(z.string())),
}));

export const frameworkUpdate = lazy(() => z.looseObject({
  date: withMeta(z.string(), { format: 'date' }),
  title: z.string(),
  summary: z.optional(z.string()),
  url: z.optional(z.string()),
}));

export const frameworkControl = lazy(() => z.looseObject({
  id: z.string(),
  title: z.string(),
  group: z.optional(z.string()),
}));

export const frameworkDetails = lazy(() => z.looseObject({
  slug: z.string(),
  name: z.string(),
  regulator: z.string(),
  jurisdiction: z.string(),
  sector: z.string(),
  sourceUrl: z.string(),
  verified: z.boolean(),
  version: z.optional(z.string()),
  description: z.optional(z.string()),
  controls: z.optional(z.array(frameworkControl)),
  updates: z.array(frameworkUpdate),
}));

export const jobKind = lazy(() => z.enum(['generation', 'mapping', 'library_ingest', 'library_refresh']));

/** The 202 answer of every job-creating operation. */
export const jobAccepted = lazy(() => z.looseObject({
  jobId: z.string(),
  status: z.enum(JOB_STATUSES),
  poll: z.string(),
  document: z.optional(z.string()),
  estimatedSeconds: z.number(),
  kind: z.optional(jobKind),
  documentId: z.optional(z.string()),
  version: z.optional(z.number()),
}));

export const jobFailure = lazy(() => z.looseObject({ code: z.string(), message: z.string() }));

export const jobStatus = lazy(() => z.looseObject({
  jobId: z.string(),
  status: z.enum(JOB_STATUSES),
  kind: z.optional(jobKind),
  createdAt: z.optional(isoTime()),
  updatedAt: z.optional(isoTime()),
  /** 0..1 where the service reports it. */
  progress: z.optional(z.number()),
  estimatedSeconds: z.optional(z.number()),
  documentId: z.optional(z.string()),
  /** Present when status is `failed`. */
  error: z.optional(jobFailure),
}));

export const generatedDocument = lazy(() => z.looseObject({
  jobId: z.string(),
  title: z.string(),
  type: z.string(),
  framework: z.string(),
  mode: z.enum(KEY_MODES),
  watermark: z.optional(z.string()),
  sections: z.array(z.looseObject({ heading: z.string(), body: z.string() })),
  generatedAt: z.optional(isoTime()),
}));

export const evidenceQuote = lazy(() => z.looseObject({
  quote: z.string(),
  /** Where the quote stands: the source file (from a combined policy set's headers), line, section. */
  location: z.looseObject({
    source: z.optional(z.string()),
    line: z.optional(z.number()),
    section: z.optional(z.string()),
  }),
}));

export const controlStatus = lazy(() => z.enum(['covered', 'partial', 'missing']));

export const controlResult = lazy(() => z.looseObject({
  id: z.string(),
  title: z.string(),
  status: controlStatus,
  score: z.optional(z.number()),
  evidence: z.array(evidenceQuote),
}));

export const gap = lazy(() => z.looseObject({
  controlId: z.string(),
  title: z.string(),
  status: z.enum(['partial', 'missing']),
  missing: z.string(),
  recommendation: z.string(),
}));

export const mappingReport = lazy(() => z.looseObject({
  jobId: z.optional(z.string()),
  framework: z.looseObject({ slug: z.optional(z.string()), name: z.string(), version: z.optional(z.string()) }),
  title: z.optional(z.string()),
  /** Percent, 0..100. */
  coverage: z.number(),
  summary: z.optional(z.looseObject({ controls: z.number(), covered: z.number(), partial: z.number(), missing: z.number() })),
  controls: z.array(controlResult),
  gaps: z.array(gap),
  mode: z.optional(z.enum(KEY_MODES)),
  generatedAt: z.optional(isoTime()),
}));

export const libraryDocument = lazy(() => z.looseObject({
  id: z.string(),
  title: z.string(),
  filename: z.optional(z.nullable(z.string())),
  category: z.optional(z.nullable(z.string())),
  tags: z.array(z.string()),
  version: z.number(),
  /** Characters of content. */
  size: z.optional(z.number()),
  /** `sha256:<hex>` of the stored content. */
  contentHash: z.optional(z.string()),
  summary: z.optional(z.string()),
  status: z.optional(z.string()),
  createdAt: z.optional(isoTime()),
  updatedAt: z.optional(isoTime()),
  /** Only with `include=content`. */
  content: z.optional(z.string()),
}));

export const libraryListing = lazy(() => z.looseObject({
  documents: z.array(libraryDocument),
  storage: z.optional(z.looseObject({ documents: z.number(), maxDocuments: z.optional(z.number()), bytes: z.number() })),
  nextCursor: z.optional(z.nullable(z.string())),
}));

export const libraryDeleted = lazy(() => z.looseObject({ id: z.string(), deleted: z.boolean() }));

export const searchHit = lazy(() => z.looseObject({
  documentId: z.string(),
  title: z.string(),
  filename: z.optional(z.nullable(z.string())),
  category: z.optional(z.nullable(z.string())),
  tags: z.optional(z.array(z.string())),
  score: z.number(),
  /** Text around the matches, with matched terms wrapped in <mark>…</mark>. */
  snippets: z.array(z.string()),
}));

export const searchResult = lazy(() => z.looseObject({
  query: z.optional(z.string()),
  results: z.array(searchHit),
  total: z.optional(z.number()),
  limit: z.optional(z.number()),
}));

const usedOfLimit = once(() => z.looseObject({ used: z.number(), limit: z.number() }));

export const usage = lazy(() => z.looseObject({
  mode: z.optional(z.enum(KEY_MODES)),
  requests: z.optional(z.looseObject({ perMinute: usedOfLimit() })),
  generations: z.optional(z.looseObject({ day: usedOfLimit(), thirtyDays: usedOfLimit() })),
  library: z.optional(z.looseObject({ documents: usedOfLimit(), bytes: z.number() })),
}));

export const pack = lazy(() => z.looseObject({
  code: z.enum(PACK_CODES),
  priceUsd: z.number(),
  tokens: z.number(),
  bonusPercent: z.optional(z.number()),
}));

export const ledgerEntry = lazy(() => z.looseObject({
  id: z.string(),
  at: isoTime(),
  operation: z.string(),
  /** Negative for a charge, positive for a credit or refund. */
  tokens: z.number(),
  balanceAfter: z.optional(z.number()),
  reference: z.optional(z.string()),
  description: z.optional(z.string()),
}));

export const autoTopUp = lazy(() => z.looseObject({
  enabled: z.boolean(),
  thresholdTokens: z.optional(z.number()),
  pack: z.optional(z.enum(PACK_CODES)),
}));

export const meter = lazy(() => z.looseObject({
  plan: z.enum(['platform', 'api']),
  dailyFloorTokens: z.number(),
  monthlyUsdEquivalent: z.number(),
  dailyRateTokens: z.optional(z.number()),
  storageBytes: z.optional(z.number()),
  estimatedDaysRemaining: z.optional(z.nullable(z.number())),
}));

export const billing = lazy(() => z.looseObject({
  mode: z.optional(z.enum(KEY_MODES)),
  balanceTokens: z.number(),
  status: z.optional(z.enum(['active', 'read_only'])),
  prices: z.record(z.string(), z.number()),
  packs: z.array(pack),
  ledger: z.array(ledgerEntry),
  meter,
  autoTopUp: z.optional(autoTopUp),
}));

export const checkout = lazy(() => z.looseObject({
  url: z.string(),
  sessionId: z.string(),
  pack: z.looseObject({ code: z.enum(PACK_CODES) }),
}));

export const calendar = lazy(() => z.looseObject({
  cadence: z.enum(CADENCES),
  firstReviewAt: z.optional(z.nullable(isoTime())),
  nextReviewAt: z.optional(z.nullable(isoTime())),
}));

/** A downloaded pdf or docx (or any non-JSON, non-text answer). */
export interface BinaryDownload {
  kind: 'binary';
  data: Uint8Array;
  contentType: string;
  filename: string;
}

/** A downloaded markdown document. */
export interface TextDownload {
  kind: 'text';
  text: string;
  contentType: string;
  filename: string;
}
