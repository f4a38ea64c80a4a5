/**
 * Response shapes. The spec leaves many of them "not shown": these are the normalised models the
 * client returns (its adapters map documented names and plausible alternatives onto them) and the
 * concrete shapes the sandbox serves and documents in its OpenAPI description. Objects are loose:
 * fields beyond these are kept. Each is built on first use (lazy.ts): the sandbox's OpenAPI
 * document, the MCP tools and tests read them; the client never does.
 */
import * as z from 'zod/v4';
import { CADENCES, FORMATS, JOB_STATUSES, KEY_MODES, PACK_CODES } from './common.js';
import { lazy, once } from './lazy.js';

const isoTime = once(() => z.string().meta({ format: 'date-time' }));

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
  description: z.string().optional(),
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
  time: isoTime().optional(),
}));

export const documentTypeInfo = lazy(() => z.looseObject({
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
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
    requestsPerMinute: z.number().optional(),
    generationsPerDay: z.number().optional(),
    generationsPer30Days: z.number().optional(),
    concurrentGenerations: z.number(),
    libraryDocuments: z.number().optional(),
    libraryMinChars: z.number(),
    libraryMaxChars: z.number(),
    uploadMaxBytes: z.number(),
    uploadKinds: z.array(z.string()).optional(),
    searchDefaultLimit: z.number().optional(),
    searchMaxLimit: z.number().optional(),
    autoTopUpMinThreshold: z.number(),
  }),
  /** Tokens per call for each priced operation id (live keys; sandbox keys are not charged). */
  prices: z.record(z.string(), z.number()),
  verifiedFrameworks: z.array(frameworkSummary),
}));

export const frameworkCandidate = lazy(() => z.looseObject({
  rank: z.number(),
  slug: z.string().optional(),
  name: z.string(),
  regulator: z.string(),
  jurisdiction: z.string(),
  sector: z.string(),
  sourceUrl: z.string(),
  /** 0..1 */
  confidence: z.number(),
  reasoning: z.string(),
  verified: z.boolean().optional(),
}));

export const suggestResult = lazy(() => z.looseObject({
  mode: z.enum(KEY_MODES),
  candidates: z.array(frameworkCandidate),
  warnings: z.array(z.string()).optional(),
}));

export const frameworkUpdate = lazy(() => z.looseObject({
  date: z.string().meta({ format: 'date' }),
  title: z.string(),
  summary: z.string().optional(),
  url: z.string().optional(),
}));

export const frameworkControl = lazy(() => z.looseObject({
  id: z.string(),
  title: z.string(),
  group: z.string().optional(),
}));

export const frameworkDetails = lazy(() => z.looseObject({
  slug: z.string(),
  name: z.string(),
  regulator: z.string(),
  jurisdiction: z.string(),
  sector: z.string(),
  sourceUrl: z.string(),
  verified: z.boolean(),
  version: z.string().optional(),
  description: z.string().optional(),
  controls: z.array(frameworkControl).optional(),
  updates: z.array(frameworkUpdate),
}));

export const jobKind = lazy(() => z.enum(['generation', 'mapping', 'library_ingest', 'library_refresh']));

/** The 202 answer of every job-creating operation. */
export const jobAccepted = lazy(() => z.looseObject({
  jobId: z.string(),
  status: z.enum(JOB_STATUSES),
  poll: z.string(),
  document: z.string().optional(),
  estimatedSeconds: z.number(),
  kind: jobKind.optional(),
  documentId: z.string().optional(),
  version: z.number().optional(),
}));

export const jobFailure = lazy(() => z.looseObject({ code: z.string(), message: z.string() }));

export const jobStatus = lazy(() => z.looseObject({
  jobId: z.string(),
  status: z.enum(JOB_STATUSES),
  kind: jobKind.optional(),
  createdAt: isoTime().optional(),
  updatedAt: isoTime().optional(),
  /** 0..1 where the service reports it. */
  progress: z.number().optional(),
  estimatedSeconds: z.number().optional(),
  documentId: z.string().optional(),
  /** Present when status is `failed`. */
  error: jobFailure.optional(),
}));

export const generatedDocument = lazy(() => z.looseObject({
  jobId: z.string(),
  title: z.string(),
  type: z.string(),
  framework: z.string(),
  mode: z.enum(KEY_MODES),
  watermark: z.string().optional(),
  sections: z.array(z.looseObject({ heading: z.string(), body: z.string() })),
  generatedAt: isoTime().optional(),
}));

export const evidenceQuote = lazy(() => z.looseObject({
  quote: z.string(),
  /** Where the quote stands: the source file (from a combined policy set's headers), line, section. */
  location: z.looseObject({
    source: z.string().optional(),
    line: z.number().optional(),
    section: z.string().optional(),
  }),
}));

export const controlStatus = lazy(() => z.enum(['covered', 'partial', 'missing']));

export const controlResult = lazy(() => z.looseObject({
  id: z.string(),
  title: z.string(),
  status: controlStatus,
  score: z.number().optional(),
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
  jobId: z.string().optional(),
  framework: z.looseObject({ slug: z.string().optional(), name: z.string(), version: z.string().optional() }),
  title: z.string().optional(),
  /** Percent, 0..100. */
  coverage: z.number(),
  summary: z
    .looseObject({ controls: z.number(), covered: z.number(), partial: z.number(), missing: z.number() })
    .optional(),
  controls: z.array(controlResult),
  gaps: z.array(gap),
  mode: z.enum(KEY_MODES).optional(),
  generatedAt: isoTime().optional(),
}));

export const libraryDocument = lazy(() => z.looseObject({
  id: z.string(),
  title: z.string(),
  filename: z.string().nullable().optional(),
  category: z.string().nullable().optional(),
  tags: z.array(z.string()),
  version: z.number(),
  /** Characters of content. */
  size: z.number().optional(),
  /** `sha256:<hex>` of the stored content. */
  contentHash: z.string().optional(),
  summary: z.string().optional(),
  status: z.string().optional(),
  createdAt: isoTime().optional(),
  updatedAt: isoTime().optional(),
  /** Only with `include=content`. */
  content: z.string().optional(),
}));

export const libraryListing = lazy(() => z.looseObject({
  documents: z.array(libraryDocument),
  storage: z
    .looseObject({ documents: z.number(), maxDocuments: z.number().optional(), bytes: z.number() })
    .optional(),
  nextCursor: z.string().nullable().optional(),
}));

export const libraryDeleted = lazy(() => z.looseObject({ id: z.string(), deleted: z.boolean() }));

export const searchHit = lazy(() => z.looseObject({
  documentId: z.string(),
  title: z.string(),
  filename: z.string().nullable().optional(),
  category: z.string().nullable().optional(),
  tags: z.array(z.string()).optional(),
  score: z.number(),
  /** Text around the matches, with matched terms wrapped in <mark>…</mark>. */
  snippets: z.array(z.string()),
}));

export const searchResult = lazy(() => z.looseObject({
  query: z.string().optional(),
  results: z.array(searchHit),
  total: z.number().optional(),
  limit: z.number().optional(),
}));

const usedOfLimit = once(() => z.looseObject({ used: z.number(), limit: z.number() }));

export const usage = lazy(() => z.looseObject({
  mode: z.enum(KEY_MODES).optional(),
  requests: z.looseObject({ perMinute: usedOfLimit() }).optional(),
  generations: z.looseObject({ day: usedOfLimit(), thirtyDays: usedOfLimit() }).optional(),
  library: z.looseObject({ documents: usedOfLimit(), bytes: z.number() }).optional(),
}));

export const pack = lazy(() => z.looseObject({
  code: z.enum(PACK_CODES),
  priceUsd: z.number(),
  tokens: z.number(),
  bonusPercent: z.number().optional(),
}));

export const ledgerEntry = lazy(() => z.looseObject({
  id: z.string(),
  at: isoTime(),
  operation: z.string(),
  /** Negative for a charge, positive for a credit or refund. */
  tokens: z.number(),
  balanceAfter: z.number().optional(),
  reference: z.string().optional(),
  description: z.string().optional(),
}));

export const autoTopUp = lazy(() => z.looseObject({
  enabled: z.boolean(),
  thresholdTokens: z.number().optional(),
  pack: z.enum(PACK_CODES).optional(),
}));

export const meter = lazy(() => z.looseObject({
  plan: z.enum(['platform', 'api']),
  dailyFloorTokens: z.number(),
  monthlyUsdEquivalent: z.number(),
  dailyRateTokens: z.number().optional(),
  storageBytes: z.number().optional(),
  estimatedDaysRemaining: z.number().nullable().optional(),
}));

export const billing = lazy(() => z.looseObject({
  mode: z.enum(KEY_MODES).optional(),
  balanceTokens: z.number(),
  status: z.enum(['active', 'read_only']).optional(),
  prices: z.record(z.string(), z.number()),
  packs: z.array(pack),
  ledger: z.array(ledgerEntry),
  meter,
  autoTopUp: autoTopUp.optional(),
}));

export const checkout = lazy(() => z.looseObject({
  url: z.string(),
  sessionId: z.string(),
  pack: z.looseObject({ code: z.enum(PACK_CODES) }),
}));

export const calendar = lazy(() => z.looseObject({
  cadence: z.enum(CADENCES),
  firstReviewAt: isoTime().nullable().optional(),
  nextReviewAt: isoTime().nullable().optional(),
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
