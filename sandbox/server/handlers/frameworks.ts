/** suggestFrameworks (discovery, charged in live mode) and getFramework. */
import { closestFrameworks, findFramework, frameworkDetails, suggestFrameworks, type FrameworkEntry } from '../../catalogue/index.js';
import { SANDBOX_WATERMARK } from '../../generation/index.js';
import { HttpError } from '../httpError.js';
import { ok, type HandlerTable } from './types.js';

function namesOf(entries: readonly FrameworkEntry[]): string {
  return entries.map((f) => `${f.name} (${f.slug})`).join(', ');
}

/** 404 for a framework the catalogue does not know, naming the closest ones. */
export function frameworkNotFound(request: string, options: { verifiedOnly?: boolean } = {}): HttpError {
  const closest = closestFrameworks(request, { limit: 3, ...options });
  return new HttpError(
    404,
    'framework_not_found',
    `No framework matches ${JSON.stringify(request.slice(0, 200))}.`,
    closest.length ? `Closest: ${namesOf(closest)}.` : 'Use POST /frameworks/suggest to find one.',
    { details: { closest: closest.map((f) => f.slug) } },
  );
}

/** 400 for mapping against a framework without a control set, naming the closest verified ones. */
export function frameworkNotVerified(framework: FrameworkEntry): HttpError {
  const closest = closestFrameworks(framework.name, { verifiedOnly: true, limit: 3 });
  return new HttpError(
    400,
    'framework_not_verified',
    `${framework.name} is not a verified framework: it has no control set to map against.`,
    closest.length ? `Map against a verified framework, for example ${namesOf(closest)}.` : 'GET /capabilities lists the verified frameworks.',
    { details: { closest: closest.map((f) => f.slug) } },
  );
}

export const frameworkHandlers: Pick<HandlerTable, 'suggestFrameworks' | 'getFramework'> = {
  suggestFrameworks: ({ services, account, input, now, requestId }) => {
    const result = services.tx(() => {
      services.billing.charge(account, 'suggestFrameworks', requestId, now);
      return suggestFrameworks(input, account.mode);
    });
    return ok({
      mode: account.mode,
      ...(account.mode === 'sandbox' ? { watermark: SANDBOX_WATERMARK } : {}),
      candidates: result.candidates,
      warnings: result.warnings,
    });
  },

  getFramework: ({ input }) => {
    const framework = findFramework(input.slug);
    if (!framework) throw frameworkNotFound(input.slug);
    return ok(frameworkDetails(framework));
  },
};
