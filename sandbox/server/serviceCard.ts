/** GET / : the service card, with the endpoint list from the operation table. */
import { operations, type OperationSpec } from '../../api/operations.js';

export function buildServiceCard(): Record<string, unknown> {
  return {
    name: 'Compliance Framework Discovery, Document Generation and Library API',
    version: 'v1',
    description: 'Local sandbox of the compliance engine API: every endpoint works end to end, sandbox keys are never charged, live keys simulate billing.',
    sandbox: true,
    documentation: '/api/public/v1/openapi.json',
    endpoints: (Object.values(operations) as OperationSpec[]).map((op) => ({
      method: op.method,
      path: op.path,
      operationId: op.id,
      public: op.public,
      summary: op.summary,
    })),
  };
}
