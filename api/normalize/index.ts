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

export { normalizeOpenApi, normalizePing, normalizeServiceCard, normalizeUsage } from './account.js';
export { normalizeAutoTopUp, normalizeBilling, normalizeCheckout, normalizeMeter } from './billing.js';
export { normalizeCalendar } from './calendar.js';
export { normalizeCapabilities } from './capabilities.js';
export { normalizeSuggestResult } from './candidates.js';
export { normalizeFramework } from './framework.js';
export { normalizeJobAccepted, normalizeJobStatus, normalizeJobState, jobFailureReason } from './job.js';
export { normalizeLibraryDeleted, normalizeLibraryListing, libraryDocumentOf } from './library.js';
export { normalizeMappingReport, coveragePercent } from './mappingReport.js';
export { normalizeSearchResult } from './search.js';
export type { NormalizeContext } from './read.js';
export type { OpenApiDocumentModel, PingModel, ServiceCardModel, UsageModel } from './account.js';
export type { AutoTopUpModel, BillingModel, CheckoutModel, MeterModel } from './billing.js';
export type { CalendarModel } from './calendar.js';
export type { CapabilitiesModel } from './capabilities.js';
export type { FrameworkCandidateModel, SuggestResultModel } from './candidates.js';
export type { FrameworkDetailsModel } from './framework.js';
export type { JobAcceptedModel } from './job.js';
export type { LibraryDeletedModel, LibraryDocumentModel, LibraryListingModel } from './library.js';
export type { SearchResultModel } from './search.js';
