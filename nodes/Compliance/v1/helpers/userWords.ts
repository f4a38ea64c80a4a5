/**
 * Errors in the words of the node's UI: the API core speaks in operation ids and API field names
 * ("getJob: jobId must be a UUID"); the user sees the operation "Get Job" and a field labelled
 * "Job ID". The code, hint and request id stay as they are (toNodeError puts them in the
 * description and context). The message is computed, never written into the caught error.
 */
import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { ComplianceError, ComplianceValidationError } from '../../../../api/errors.js';
import type { OperationEntry } from './interfaces.js';

/** API fields whose parameter has another name or whose label reads better than the locator's. */
const FIELD_LABELS: Record<string, string> = {
  jobId: 'Job ID',
  id: 'Document ID',
  slug: 'Framework',
  framework: 'Framework',
  type: 'Document Type',
  firstReviewAt: 'First Review At',
  format: 'Format',
};

/** What the one-word operations of a resource act on, as the user would say it. */
const NOUNS: Record<string, string> = { library: 'Library Document' };
const LABELS: Record<string, string> = { 'library.search': 'Search Library', 'library.getAll': 'Get Many Library Documents' };

/** "Get Job", "Check Key", "Wait for a job": the operation as the dropdown and the action list name it. */
export function operationLabel(entry: OperationEntry, resource: string, operation: string, resourceName: string): string {
  const label = LABELS[`${resource}.${operation}`];
  if (label) return label;
  if (entry.override) return entry.override.action;
  return entry.name.includes(' ') ? entry.name : `${entry.name} ${NOUNS[resource] ?? resourceName}`;
}

/** The label of the parameter an API field comes from; undefined for the credential's fields and others no parameter holds. */
function fieldLabel(field: string, properties: INodeProperties[]): string | undefined {
  const top = field.split('.')[0]!;
  return FIELD_LABELS[top] ?? properties.find((property) => property.name === top || property.displayName === top)?.displayName ??
    // The node's own checks already name nested fields by their label ("Tags", "Organisation → Name").
    (/^[A-Z]/.test(top) ? field : undefined)
}

/**
 * The message of a compliance error, or of a node error made from one (its context keeps the
 * operation id and field), in the UI's words; undefined for other errors, which keep their own.
 * The error itself is left as it is: toNodeError and errorOutput build what n8n shows from both.
 */
export function userMessage(error: unknown, operation: string, properties: INodeProperties[]): string | undefined {
  let operationId: unknown;
  let field: unknown;
  if (error instanceof ComplianceError) {
    operationId = error.operationId;
    field = error instanceof ComplianceValidationError ? error.field : undefined;
  } else if (error instanceof NodeOperationError && typeof error.context.code === 'string') {
    ({ operationId, field } = error.context);
  } else {
    return undefined;
  }
  let message = (error as Error).message;
  if (typeof operationId === 'string' && message.startsWith(`${operationId}: `)) message = message.slice(operationId.length + 2);
  const label = typeof field === 'string' && field && message.startsWith(field) ? fieldLabel(field, properties) : undefined;
  if (label && typeof field === 'string') return `${label} in ${operation}${message.slice(field.length)}`;
  // Errors of the credential (base URL, key) have no operation and keep their message.
  return operationId ? `${operation}: ${message}` : message;
}
