/**
 * Shared pieces of the operations: option entries derived from the operation table, the pagination
 * parameters, the parameter readers, and the item helpers that keep `pairedItem` (waiting for jobs
 * is in jobs.ts).
 */
import type {
  IDataObject,
  IDisplayOptions,
  IExecuteFunctions,
  INodeExecutionData,
  INodeProperties,
  INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { ComplianceValidationError } from '../../../../api/errors.js';
import { operations, type OperationId } from '../../../../api/operations.js';
import type { ResourceOperations } from './interfaces.js';

/** What a call costs, from the table's cost, short enough for the operation dropdown. */
function costNote(operationId: OperationId): string {
  const { cost } = operations[operationId];
  if (cost.kind === 'free') return '';
  if (cost.kind === 'fixed') return ` ${cost.tokens.toLocaleString('en-US')} tokens on live keys.`;
  return ' Charged on live keys.';
}

/** Where the table's first sentence is too long for the dropdown (it shows about 70 characters). */
const SHORT: Partial<Record<OperationId, string>> = {
  getCapabilities: 'Document types, formats, verified frameworks, prices and limits.',
  getUsage: "Request and generation counters against this key's limits.",
  getBilling: 'Token balance, prices, packs, ledger, meter and auto-top-up.',
  setAutoTopUp: 'Enable auto-top-up (threshold and pack) or disable it.',
  downloadDocument: "A finished job's result as JSON, Markdown, PDF or DOCX.",
  generateDocument: 'Queue a policy or framework-reference document.',
  mapDocument: 'Map your document against a verified framework.',
  searchLibrary: 'Full-text search over the library, ranked.',
};

/** The table's first sentence without its parentheses, or the shorter text above. */
function shortDescription(operationId: OperationId): string {
  const first = operations[operationId].description.split(/(?<=[a-z)])\. /)[0]!.replace(/\s*\([^)]*\)/g, '').replace(/[.:;,]$/, '');
  return SHORT[operationId] ?? `${first.split(/: |; /)[0]!}.`;
}


const VERBS = /^(get|list|check|download|search|suggest|generate|map|ingest|refresh|delete|set|buy|create|wait)\b/i;

/** The action line n8n shows (and tools expose): the table's summary, as a verb phrase. */
function actionOf(operationId: OperationId): string {
  const { summary } = operations[operationId];
  if (VERBS.test(summary)) return summary;
  // Lower-case a plain first word only: "OpenAPI description" keeps its capitals.
  const first = /^[A-Z][a-z]*\b(?![A-Z])/.test(summary) && !/^[A-Z][a-z]*[A-Z]/.test(summary) ? summary[0]!.toLowerCase() + summary.slice(1) : summary;
  return `Get ${first}`;
}

/** The operation dropdown of a resource, sorted by name, every entry derived from the table. */
export function operationSelector(resource: string, entries: ResourceOperations, defaultOperation: string): INodeProperties {
  const options: INodePropertyOptions[] = Object.entries(entries)
    .map(([value, entry]) => ({
      name: entry.name,
      value,
      description: entry.override?.description ?? shortDescription(entry.operationId) + costNote(entry.operationId),
      action: entry.override?.action ?? actionOf(entry.operationId),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: [resource] } },
    options,
    default: defaultOperation,
  };
}

/** Items for one input item's result, each paired with it. */
export function jsonItems(data: IDataObject | IDataObject[], itemIndex: number): INodeExecutionData[] {
  return (Array.isArray(data) ? data : [data]).map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

export function asData(value: unknown): IDataObject {
  return value as IDataObject;
}

/** A parameter an expression filled with a value of the wrong kind (an object where text belongs). */
function wrongType(label: string, value: unknown, expected: string): ComplianceValidationError {
  const kind = Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
  return new ComplianceValidationError({
    code: 'invalid_request',
    field: label,
    message: `${label} must be ${expected}, not ${kind}`,
    hint: `Set ${label} to ${expected}; when an expression gives an object or list, pick the text field from it (for example {{ $json.name }}).`,
  });
}

/**
 * Trims a string parameter; empty becomes undefined so optional fields are left out. Numbers and
 * booleans become text; an object or list (an expression giving JSON) is refused, naming `label`
 * (the parameter's display name), instead of being sent as "[object Object]".
 */
export function text(value: unknown, label = 'A text parameter'): string | undefined {
  if (typeof value !== 'string') {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'object' || typeof value === 'function' || typeof value === 'symbol') throw wrongType(label, value, 'text');
    return String(value as number | boolean | bigint);
  }
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Tags: comma-separated text or a list of strings (from an expression); anything else is refused. */
export function tagsOf(value: unknown, label = 'Tags'): string | undefined {
  if (Array.isArray(value) && value.every((tag) => typeof tag === 'string')) return text(value.join(','), label);
  if (value !== undefined && value !== null && typeof value !== 'string') throw wrongType(label, value, 'comma-separated text such as "iso27001, access"');
  return text(value, label);
}

/** Drops undefined and empty-string values. */
export function compact<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined && value !== '')) as Partial<T>;
}

// ---------------------------------------------------------------------------------------------
// Return All / Limit

export function returnAllProperties(displayOptions: IDisplayOptions): INodeProperties[] {
  return [
    {
      displayName: 'Return All',
      name: 'returnAll',
      type: 'boolean',
      default: false,
      description: 'Whether to return all results or only up to a given limit',
      displayOptions,
    },
    {
      displayName: 'Limit',
      name: 'limit',
      type: 'number',
      typeOptions: { minValue: 1 },
      default: 50,
      description: 'Max number of results to return',
      displayOptions: { show: { ...displayOptions.show, returnAll: [false] } },
    },
  ];
}

/** A JSON parameter that must hold a list (Existing Issues, Waivers): parsed, or an error naming `label` and showing `example`. */
export function jsonList(context: IExecuteFunctions, value: unknown, label: string, example: string): unknown[] {
  let parsed = value;
  if (typeof parsed === 'string') {
    try {
      parsed = JSON.parse(parsed || '[]');
    } catch {
      throw new NodeOperationError(context.getNode(), `${label} is not JSON`, { description: `Give a list, for example [] or ${example}.` });
    }
  }
  if (!Array.isArray(parsed)) throw new NodeOperationError(context.getNode(), `${label} must be a list`, { description: `For example ${example}.` });
  return parsed as unknown[];
}
