/** Account-level answers: the service card, the OpenAPI document, ping and usage counters. */
import type { z } from 'zod/v4/mini';
import type { openApiDocument, pingResult, serviceCard, usage } from '../schemas/responses.js';
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
  unexpected,
} from './read.js';

type ServiceCardModel = z.output<typeof serviceCard>;
type OpenApiDocumentModel = z.output<typeof openApiDocument>;
type PingModel = z.output<typeof pingResult>;
type UsageModel = z.output<typeof usage>;

export function normalizeServiceCard(raw: unknown, context: NormalizeContext): ServiceCardModel {
  const object = objectOf(raw, context, 'service card');
  const endpoints = (pickArray(object, ['endpoints', 'operations', 'routes']) ?? []).filter(isRecord).map((endpoint) =>
    defined({
      ...endpoint,
      method: pickText(endpoint, ['method', 'verb']) ?? '',
      path: pickText(endpoint, ['path', 'route', 'url']) ?? '',
      operationId: pickText(endpoint, ['operationId', 'id', 'name']) ?? '',
      public: pickBoolean(endpoint, ['public', 'isPublic']) ?? false,
    }),
  );
  return defined({
    ...object,
    name: pickText(object, ['name', 'service', 'title']) ?? '',
    version: pickText(object, ['version', 'apiVersion', 'api_version']) ?? '',
    description: pickText(object, ['description']),
    endpoints,
  }) as ServiceCardModel;
}

/** The OpenAPI document is passed through; only its identity is checked. */
export function normalizeOpenApi(raw: unknown, context: NormalizeContext): OpenApiDocumentModel {
  const object = objectOf(raw, context, 'OpenAPI document');
  if (typeof object.openapi !== 'string' || !isRecord(object.paths)) {
    throw unexpected(context, 'OpenAPI document (openapi, paths)', ['openapi', 'paths'], object);
  }
  return object as OpenApiDocumentModel;
}

export function normalizePing(raw: unknown, context: NormalizeContext): PingModel {
  const object = objectOf(raw, context, 'ping result');
  const mode = pickMode(object);
  if (mode === undefined) throw unexpected(context, 'key mode (sandbox or live)', ['mode', 'keyMode', 'environment', 'livemode'], object);
  return defined({
    ...object,
    ok: pickBoolean(object, ['ok', 'success', 'authenticated']) ?? true,
    client: pickText(object, ['client', 'clientName', 'client_name', 'name', 'keyName', 'account', 'client.name']) ?? '',
    mode,
    time: pickText(object, ['time', 'serverTime', 'timestamp', 'now']),
  }) as PingModel;
}

/** `{used, limit}` from `{used, limit}`, `{count, max}`, `{current, quota}`… */
function usedOfLimit(value: unknown): { used: number; limit: number } | undefined {
  if (!isRecord(value)) return undefined;
  const used = pickNumber(value, ['used', 'count', 'current', 'value', 'consumed']);
  const limit = pickNumber(value, ['limit', 'max', 'quota', 'allowed', 'cap']);
  return used === undefined || limit === undefined ? undefined : { ...value, used, limit };
}

export function normalizeUsage(raw: unknown, context: NormalizeContext): UsageModel {
  const object = objectOf(raw, context, 'usage');
  const requests = pickRecord(object, ['requests', 'rate', 'requestRate']);
  const generations = pickRecord(object, ['generations', 'generation', 'quotas']);
  const library = pickRecord(object, ['library', 'storage']);
  const perMinute = requests && usedOfLimit(requests.perMinute ?? requests.minute ?? requests);
  const day = generations && usedOfLimit(generations.day ?? generations.daily ?? generations.perDay);
  const thirtyDays = generations && usedOfLimit(generations.thirtyDays ?? generations['30d'] ?? generations.monthly ?? generations.per30Days);
  const documents = library && usedOfLimit(library.documents ?? library);
  const libraryBytes = library && pickNumber(library, ['bytes', 'sizeBytes', 'usedBytes', 'storageBytes']);
  return defined({
    ...object,
    mode: pickMode(object),
    requests: requests && perMinute ? { ...requests, perMinute } : requests,
    generations: generations && day && thirtyDays ? { ...generations, day, thirtyDays } : generations,
    library: library && documents ? { ...library, documents, bytes: libraryBytes ?? 0 } : library,
  } as JsonObject) as UsageModel;
}
