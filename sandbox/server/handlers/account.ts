/** ping, getCapabilities, getUsage. */
import { FORMATS, LIMITS } from '../../../api/schemas/common.js';
import { frameworks } from '../../catalogue/index.js';
import { ACCEPTED_UPLOAD_EXTENSIONS } from '../../formats/index.js';
import { documentTypes } from '../../generation/index.js';
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from '../../library/index.js';
import { PRICES } from '../billing.js';
import type { Account } from '../accounts.js';
import type { Services } from '../services.js';
import { ok, type HandlerTable } from './types.js';

const SANDBOX_CLIENT_NAME = 'compliance-sandbox';

function limitsOf(services: Services, account: Account) {
  const limits = services.options.limits[account.mode];
  return {
    requestsPerMinute: limits.requestsPerMinute,
    generationsPerDay: limits.generationsPerDay,
    generationsPer30Days: limits.generationsPer30Days,
    concurrentGenerations: limits.concurrentGenerations,
    libraryDocuments: limits.libraryDocuments,
    libraryMinChars: LIMITS.libraryMinChars,
    libraryMaxChars: LIMITS.libraryMaxChars,
    uploadMaxBytes: LIMITS.uploadMaxBytes,
    uploadKinds: [...new Set(Object.values(ACCEPTED_UPLOAD_EXTENSIONS))],
    uploadExtensions: Object.keys(ACCEPTED_UPLOAD_EXTENSIONS),
    searchDefaultLimit: SEARCH_DEFAULT_LIMIT,
    searchMaxLimit: SEARCH_MAX_LIMIT,
    autoTopUpMinThreshold: LIMITS.autoTopUpMinThreshold,
  };
}

export const accountHandlers: Pick<HandlerTable, 'ping' | 'getCapabilities' | 'getUsage'> = {
  ping: ({ account, now }) =>
    ok({ ok: true, client: SANDBOX_CLIENT_NAME, mode: account.mode, keyId: account.keyId, version: 'v1', time: new Date(now).toISOString() }),

  getCapabilities: ({ services, account }) =>
    ok({
      mode: account.mode,
      documentTypes: documentTypes.map(({ id, title, description }) => ({ id, title, description })),
      formats: [...FORMATS],
      limits: limitsOf(services, account),
      prices: PRICES,
      charged: account.mode === 'live',
      verifiedFrameworks: frameworks.filter((f) => f.verified).map((f) => ({ slug: f.slug, name: f.name, verified: true, version: f.version })),
    }),

  getUsage: ({ services, account, now }) => {
    const limits = services.options.limits[account.mode];
    const counts = services.jobs.generationCounts(account.keyHash, now);
    const storage = services.library.storage(account.keyHash);
    return ok({
      mode: account.mode,
      requests: { perMinute: services.rateLimiter.peek(account.keyHash, limits.requestsPerMinute, now) },
      generations: {
        day: { used: counts.day.used, limit: limits.generationsPerDay },
        thirtyDays: { used: counts.thirtyDays.used, limit: limits.generationsPer30Days },
        inFlight: { used: services.jobs.openGenerations(account.keyHash, now), limit: limits.concurrentGenerations },
      },
      library: { documents: { used: storage.documents, limit: limits.libraryDocuments }, bytes: storage.bytes },
    });
  },
};
