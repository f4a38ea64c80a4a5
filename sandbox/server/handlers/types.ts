/** The shape of an operation handler: validated input in, a JSON or file reply out. */
import type { z } from 'zod/v4/mini';
import type { OperationId, Operations } from '../../../api/operations.js';
import type { Account } from '../accounts.js';
import type { Fault } from '../faults.js';
import type { Services } from '../services.js';

export interface HandlerContext<Input> {
  services: Services;
  account: Account;
  input: Input;
  now: number;
  requestId: string;
  fault: Fault | undefined;
}

export type Reply =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { status: number; file: Uint8Array | string; contentType: string; filename: string };

type OperationHandler<Id extends OperationId> = (
  ctx: HandlerContext<z.output<Operations[Id]['input']>>,
) => Reply | Promise<Reply>;

/** Operations that need a key (the two public ones are served by the server itself). */
export type KeyedOperationId = Exclude<OperationId, 'getServiceCard' | 'getOpenApi'>;

export type HandlerTable = { [Id in KeyedOperationId]: OperationHandler<Id> };

export function ok(body: unknown): Reply {
  return { status: 200, body };
}
