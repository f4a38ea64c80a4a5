/**
 * One adapter per operation's answer, keyed by operation id: the compiler checks that every JSON
 * operation has one. Downloads are read by api/download.ts instead.
 */
import type { OperationOutput } from '../clientTypes.js';
import type { OperationId } from '../operations.js';
import { normalizeOpenApi, normalizePing, normalizeServiceCard, normalizeUsage } from './account.js';
import { normalizeAutoTopUp, normalizeBilling, normalizeCheckout } from './billing.js';
import { normalizeCalendar } from './calendar.js';
import { normalizeCapabilities } from './capabilities.js';
import { normalizeSuggestResult } from './candidates.js';
import { normalizeFramework } from './framework.js';
import { normalizeJobAccepted, normalizeJobStatus } from './job.js';
import { normalizeLibraryDeleted, normalizeLibraryListing, libraryDocumentOf } from './library.js';
import type { NormalizeContext } from './read.js';
import { normalizeSearchResult } from './search.js';

export type JsonOperationId = Exclude<OperationId, 'downloadDocument'>;

type Normalizers = { [Id in JsonOperationId]: (raw: unknown, context: NormalizeContext) => OperationOutput<Id> };

export const normalizers: Normalizers = {
  getServiceCard: normalizeServiceCard,
  getOpenApi: normalizeOpenApi,
  ping: normalizePing,
  getCapabilities: normalizeCapabilities,
  suggestFrameworks: normalizeSuggestResult,
  getFramework: normalizeFramework,
  generateDocument: normalizeJobAccepted,
  mapDocument: normalizeJobAccepted,
  getJob: normalizeJobStatus,
  ingestLibraryDocument: normalizeJobAccepted,
  refreshLibraryDocument: normalizeJobAccepted,
  listLibrary: normalizeLibraryListing,
  getLibraryDocument: (raw, context) => libraryDocumentOf(raw, context),
  deleteLibraryDocument: normalizeLibraryDeleted,
  searchLibrary: normalizeSearchResult,
  getUsage: normalizeUsage,
  getBilling: normalizeBilling,
  createCheckout: normalizeCheckout,
  getAutoTopUp: normalizeAutoTopUp,
  setAutoTopUp: normalizeAutoTopUp,
  getCalendar: normalizeCalendar,
  setCalendar: normalizeCalendar,
};

export { normalizePing, normalizeUsage } from './account.js';
export { normalizeAutoTopUp, normalizeBilling, normalizeCheckout } from './billing.js';
export { normalizeCalendar } from './calendar.js';
export { normalizeCapabilities } from './capabilities.js';
export { normalizeSuggestResult } from './candidates.js';
export { normalizeFramework } from './framework.js';
export { normalizeJobAccepted, normalizeJobStatus } from './job.js';
export { normalizeLibraryListing, libraryDocumentOf } from './library.js';
export { normalizeMappingReport } from './mappingReport.js';
export { normalizeSearchResult } from './search.js';
