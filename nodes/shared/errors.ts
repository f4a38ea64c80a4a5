/**
 * Mapping the API core's typed errors onto n8n's: the service's answers become NodeApiError, local
 * refusals and job outcomes NodeOperationError. Each carries the service's code, message, hint and
 * request id; `errorOutput` is what "Continue On Fail" returns for an item. No error text ever
 * contains the API key: the client never holds it, and n8n's request errors (which carry the
 * request headers) are reduced to their message by the transport.
 */
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import {
  ComplianceApiError,
  ComplianceError,
  ComplianceJobError,
  ComplianceJobTimeoutError,
  ComplianceValidationError,
} from '../../api/errors.js';

type NodeError = NodeApiError | NodeOperationError;

/** The fields of a compliance error worth showing and returning. */
function errorFields(error: unknown): IDataObject {
  if (error instanceof ComplianceError) {
    const fields: IDataObject = { code: error.code, message: error.message };
    if (error.hint) fields.hint = error.hint;
    if (error.operationId) fields.operationId = error.operationId;
    if (error instanceof ComplianceApiError) {
      if (error.status !== undefined) fields.status = error.status;
      if (error.requestId) fields.requestId = error.requestId;
      const details = Object.fromEntries(
        Object.entries(error.details).filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value)),
      );
      if (Object.keys(details).length) fields.details = details as IDataObject;
    }
    if (error instanceof ComplianceValidationError) fields.field = error.field;
    if (error instanceof ComplianceJobError || error instanceof ComplianceJobTimeoutError) {
      fields.jobId = error.jobId;
      if (typeof error.job === 'object' && error.job !== null) fields.job = error.job as IDataObject;
    }
    return fields;
  }
  if (error instanceof NodeApiError || error instanceof NodeOperationError) {
    const context = (error.context ?? {}) as IDataObject;
    return { message: error.message, ...(error.description ? { description: error.description } : {}), ...pick(context, ['code', 'hint', 'requestId', 'status', 'jobId']) };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

function pick(object: IDataObject, keys: string[]): IDataObject {
  return Object.fromEntries(keys.filter((key) => object[key] !== undefined).map((key) => [key, object[key]]));
}

function describe(error: ComplianceError): string {
  const parts: string[] = [];
  if (error.hint) parts.push(error.hint);
  parts.push(`Code: ${error.code}`);
  if (error instanceof ComplianceApiError && error.requestId) parts.push(`Request ID: ${error.requestId}`);
  if (error instanceof ComplianceJobError || error instanceof ComplianceJobTimeoutError) parts.push(`Job ID: ${error.jobId}`);
  return parts.join(' · ');
}

/**
 * Any failure as an n8n error for `itemIndex`, keeping the service's code, hint and request id.
 * `message`, the failure in the node's words (userWords.ts), replaces the error's own in what is built.
 */
export function toNodeError(node: INode, error: unknown, itemIndex?: number, message?: string): NodeError {
  if (error instanceof NodeOperationError && message !== undefined && message !== error.message) {
    const worded = new NodeOperationError(node, message, {
      ...(error.description ? { description: error.description } : {}),
      ...(itemIndex !== undefined ? { itemIndex } : {}),
    });
    Object.assign(worded.context, error.context, itemIndex !== undefined ? { itemIndex } : {});
    return worded;
  }
  if (error instanceof NodeApiError || error instanceof NodeOperationError) {
    if (itemIndex !== undefined && error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
    return error;
  }
  if (error instanceof ComplianceApiError && error.status !== undefined) {
    const fields = { ...errorFields(error), ...(message !== undefined ? { message } : {}) };
    const apiError = new NodeApiError(node, fields as JsonObject, {
      message: message ?? error.message,
      description: describe(error),
      httpCode: String(error.status),
      ...(itemIndex !== undefined ? { itemIndex } : {}),
    });
    Object.assign(apiError.context, pick(fields, ['code', 'hint', 'requestId', 'status', 'details']));
    return apiError;
  }
  if (error instanceof ComplianceError) {
    const operationError = new NodeOperationError(node, message ?? error.message, {
      description: describe(error),
      ...(itemIndex !== undefined ? { itemIndex } : {}),
    });
    Object.assign(operationError.context, pick(errorFields(error), ['code', 'hint', 'requestId', 'status', 'jobId', 'field', 'operationId']));
    return operationError;
  }
  return new NodeOperationError(node, error instanceof Error ? error : String(error), itemIndex !== undefined ? { itemIndex } : {});
}

/** The JSON of an error item under "Continue On Fail"; `message` as in toNodeError. */
export function errorOutput(error: unknown, message?: string): IDataObject {
  const { message: own, ...rest } = errorFields(error);
  return { error: message ?? own, ...rest };
}
