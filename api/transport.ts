/**
 * The seam between the pure API core and the world. The core builds requests and interprets
 * responses; a transport moves bytes. Node (undici), n8n (httpRequestWithAuthentication) and tests
 * each supply their own.
 */

export interface TransportRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Absolute URL, query included. */
  url: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Per-attempt timeout the transport must enforce. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface TransportResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: Uint8Array;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/**
 * What went wrong when no response arrived. `sent` tells the retry policy whether the service may
 * have received the request: false only when the connection failed before any byte was written
 * (refused, DNS, TLS, connect timeout).
 */
export type TransportFailureKind = 'connect' | 'timeout' | 'reset' | 'aborted' | 'other';

export class TransportError extends Error {
  readonly kind: TransportFailureKind;
  readonly sent: boolean;

  constructor(kind: TransportFailureKind, sent: boolean, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'TransportError';
    this.kind = kind;
    this.sent = sent;
  }
}

/** Waits `ms`, rejecting early when `signal` aborts. Injected: the core has no timers of its own. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Milliseconds since the epoch. Injected so tests can drive time. */
export type Clock = () => number;
