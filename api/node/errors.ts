/**
 * Failures of Node's HTTP clients (undici, node:http) without a response, classified by the one
 * classifier (api/transportFailure.ts). Apart from transport.ts so a transport on node:http (the
 * GitHub Actions') shares it without loading undici.
 */
import type { TransportError } from '../transport.js';
import { classifyTransportFailure, type FailureState } from '../transportFailure.js';

/** Maps a failure of undici's `request` or node:http to a TransportError kind and whether the request may have been sent. */
export function classifyNodeError(error: unknown, state: FailureState): TransportError {
  return classifyTransportFailure(error, state);
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

