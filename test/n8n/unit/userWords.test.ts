/**
 * Errors in the node's words are built, not rewritten: the message a user sees names the operation
 * and the field by their labels, while the error the client threw keeps its own message.
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { ComplianceApiError, ComplianceValidationError } from '../../../api/errors.js';
import { userMessage } from '../../../nodes/Compliance/v1/helpers/userWords.js';
import { errorOutput, toNodeError } from '../../../nodes/shared/errors.js';

const NODE: INode = { id: 'n1', name: 'Compliance', type: 'n8n-nodes-compliance.compliance', typeVersion: 2, position: [0, 0], parameters: {} };
const FIELDS = [{ displayName: 'Job ID', name: 'jobId', type: 'string' as const, default: '' }];

const invalidJobId = () =>
  new ComplianceValidationError({ code: 'invalid_job_id', message: 'getJob: jobId must be a UUID such as 3f2b…', operationId: 'getJob', field: 'jobId', hint: 'Copy the job ID from the Generate output.' });

describe('errors in the words of the node', () => {
  it('names the field by its label and the operation by its name, leaving the thrown error as it was', () => {
    const error = invalidJobId();
    expect(userMessage(error, 'Get Job', FIELDS)).toBe('Job ID in Get Job must be a UUID such as 3f2b…');
    expect(error.message).toBe('getJob: jobId must be a UUID such as 3f2b…');
  });

  it('puts the operation before a message that names no field, and leaves errors of others alone', () => {
    const refused = new ComplianceApiError({ code: 'insufficient_tokens', message: 'getJob: not enough tokens', operationId: 'getJob', status: 402 });
    expect(userMessage(refused, 'Get Job', FIELDS)).toBe('Get Job: not enough tokens');
    expect(userMessage(new Error('socket hang up'), 'Get Job', FIELDS)).toBeUndefined();
  });

  it('builds the n8n error and the Continue On Fail item from the worded message, with the code, hint and item', () => {
    const error = invalidJobId();
    const message = userMessage(error, 'Get Job', FIELDS);
    const nodeError = toNodeError(NODE, error, 3, message);
    expect(nodeError).toBeInstanceOf(NodeOperationError);
    expect(nodeError.message).toBe('Job ID in Get Job must be a UUID such as 3f2b…');
    expect(nodeError.context).toMatchObject({ code: 'invalid_job_id', field: 'jobId', operationId: 'getJob', itemIndex: 3 });
    expect(errorOutput(error, message)).toMatchObject({ error: 'Job ID in Get Job must be a UUID such as 3f2b…', code: 'invalid_job_id', hint: 'Copy the job ID from the Generate output.' });
    expect(error.message).toBe('getJob: jobId must be a UUID such as 3f2b…');
  });

  it("rebuilds a node error of the node's own checks with the worded message instead of changing it", () => {
    const own = new NodeOperationError(NODE, 'getJob: jobId is required', { description: 'Enter a Job ID.' });
    Object.assign(own.context, { code: 'invalid_input', field: 'jobId', operationId: 'getJob' });
    const message = userMessage(own, 'Get Job', FIELDS);
    const built = toNodeError(NODE, own, 0, message);
    expect(built).not.toBe(own);
    expect(built).toMatchObject({ message: 'Job ID in Get Job is required', description: 'Enter a Job ID.' });
    expect(built.context).toMatchObject({ code: 'invalid_input', itemIndex: 0 });
    expect(own.message).toBe('getJob: jobId is required');
  });

  it('gives a service answer as NodeApiError with the worded message and the HTTP status', () => {
    const refused = new ComplianceApiError({ code: 'insufficient_tokens', message: 'getJob: not enough tokens', operationId: 'getJob', status: 402, requestId: 'req_1' });
    const built = toNodeError(NODE, refused, undefined, userMessage(refused, 'Get Job', FIELDS));
    expect(built).toBeInstanceOf(NodeApiError);
    expect(built).toMatchObject({ message: 'Get Job: not enough tokens', httpCode: '402' });
    expect(refused.message).toBe('getJob: not enough tokens');
  });
});
