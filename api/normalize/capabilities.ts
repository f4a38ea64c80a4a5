/** Capabilities: document types, download formats, limits, prices and verified frameworks. */
import type { z } from 'zod/v4/mini';
import type { capabilities } from '../schemas/responses.js';
import { FORMATS, LIMITS, type DownloadFormat } from '../schemas/common.js';
import { pricesOf } from './billing.js';
import {
  type JsonObject,
  type NormalizeContext,
  defined,
  isRecord,
  objectOf,
  pickArray,
  pickBoolean,
  pickMode,
  pickNumber,
  pickRecord,
  pickText,
  toStringList,
  toText,
  unexpected,
} from './read.js';

type CapabilitiesModel = z.output<typeof capabilities>;

const TYPE_NAMES = ['documentTypes', 'document_types', 'types', 'documents.types'];

/** Limit names, each with its plausible alternatives. */
const LIMIT_NAMES: Record<string, readonly string[]> = {
  requestsPerMinute: ['requestsPerMinute', 'requests_per_minute', 'rateLimit', 'rpm', 'requests.perMinute'],
  generationsPerDay: ['generationsPerDay', 'generations_per_day', 'dailyGenerations', 'generations.day', 'generations.perDay'],
  generationsPer30Days: ['generationsPer30Days', 'generations_per_30_days', 'monthlyGenerations', 'generations.thirtyDays', 'generations.per30Days'],
  concurrentGenerations: ['concurrentGenerations', 'concurrent_generations', 'concurrency', 'maxConcurrentJobs'],
  libraryDocuments: ['libraryDocuments', 'library_documents', 'maxDocuments', 'library.documents', 'libraryCapacity'],
  libraryMinChars: ['libraryMinChars', 'library_min_chars', 'minChars', 'library.minChars'],
  libraryMaxChars: ['libraryMaxChars', 'library_max_chars', 'maxChars', 'library.maxChars'],
  uploadMaxBytes: ['uploadMaxBytes', 'upload_max_bytes', 'maxUploadBytes', 'upload.maxBytes'],
  searchDefaultLimit: ['searchDefaultLimit', 'search_default_limit', 'search.defaultLimit'],
  searchMaxLimit: ['searchMaxLimit', 'search_max_limit', 'search.maxLimit'],
  autoTopUpMinThreshold: ['autoTopUpMinThreshold', 'auto_topup_min_threshold', 'autoTopUp.minThreshold'],
};

/** Values the spec states, used when the answer leaves them out. Unstated ones stay absent. */
const SPEC_LIMITS: Record<string, number> = {
  concurrentGenerations: 1,
  libraryMinChars: LIMITS.libraryMinChars,
  libraryMaxChars: LIMITS.libraryMaxChars,
  uploadMaxBytes: LIMITS.uploadMaxBytes,
  autoTopUpMinThreshold: LIMITS.autoTopUpMinThreshold,
};

function limitsOf(object: JsonObject): JsonObject {
  const source = pickRecord(object, ['limits', 'keyLimits', 'quotas']) ?? {};
  const limits: JsonObject = { ...source };
  for (const [name, names] of Object.entries(LIMIT_NAMES)) {
    const value = pickNumber(source, names) ?? SPEC_LIMITS[name];
    if (value !== undefined) limits[name] = value;
  }
  const kinds = toStringList(source.uploadKinds ?? source.upload_kinds ?? source.acceptedFileTypes);
  if (kinds) limits.uploadKinds = kinds;
  return limits;
}

export function normalizeCapabilities(raw: unknown, context: NormalizeContext): CapabilitiesModel {
  const object = objectOf(raw, context, 'capabilities');
  const typeList = pickArray(object, TYPE_NAMES);
  if (typeList === undefined) throw unexpected(context, 'document types', TYPE_NAMES, object);
  const documentTypes = typeList.flatMap((item) => {
    if (typeof item === 'string') return [{ id: item, title: item }];
    if (!isRecord(item)) return [];
    const id = pickText(item, ['id', 'type', 'slug', 'name', 'key']);
    return id === undefined ? [] : [defined({ ...item, id, title: pickText(item, ['title', 'name', 'label']) ?? id, description: pickText(item, ['description']) })];
  });
  const formats = (toStringList(object.formats ?? object.outputFormats ?? object.downloadFormats) ?? [...FORMATS]).filter(
    (format): format is DownloadFormat => (FORMATS as readonly string[]).includes(format),
  );
  const verifiedFrameworks = (pickArray(object, ['verifiedFrameworks', 'verified_frameworks', 'frameworks']) ?? []).flatMap((item) => {
    if (typeof item === 'string') return [{ slug: item, name: item, verified: true }];
    if (!isRecord(item)) return [];
    const slug = pickText(item, ['slug', 'id']) ?? toText(item.name);
    return slug === undefined
      ? []
      : [{ ...item, slug, name: pickText(item, ['name', 'title']) ?? slug, verified: pickBoolean(item, ['verified']) ?? true }];
  });
  return defined({
    ...object,
    mode: pickMode(object),
    documentTypes,
    formats,
    limits: limitsOf(object),
    prices: pricesOf(object.prices ?? object.pricing),
    verifiedFrameworks,
  }) as CapabilitiesModel;
}
