/**
 * The tools this server offers: one per operation of the table (but getOpenApi, a resource), the
 * ones that wait, read or page in their own modules, getMappingReport and planReview; and the
 * selection `--tools` makes.
 */
import { operationIds, type OperationId } from '../../api/operations.js';
import type { SessionBudget } from './budget.js';
import { DOCUMENT_TOOLS, mappingReportTool } from './documentTools.js';
import type { ToolGroup } from './groups.js';
import { LIBRARY_TOOLS } from './libraryTools.js';
import { planReviewTool } from './planReview.js';
import { operationTool, type ServiceLists, type ToolDefinition } from './tools.js';

/** Operations that are not tools: the OpenAPI document is the resource openapi://compliance-engine (136 KB is no tool result). */
const NOT_TOOLS: ReadonlySet<OperationId> = new Set(['getOpenApi']);

/** Tools whose description says more than the table's for an assistant. */
const DESCRIPTIONS: Partial<Record<OperationId, string>> = {
  // The service card's endpoint list is this server's tool list: only what is not there.
  getServiceCard: 'Get the service\'s name, API version and description (its operations are this server\'s tools). Needs no key.',
  createCheckout: 'Create a hosted checkout for a credit pack (pack10 to pack500): a new payment page URL for the user to open in a browser, each call a new session. Nothing is paid until the page is completed.',
};

function tableTool(id: OperationId, lists: ServiceLists): ToolDefinition {
  const special = (DOCUMENT_TOOLS as Partial<Record<OperationId, (lists: ServiceLists) => ToolDefinition>>)[id] ?? (LIBRARY_TOOLS as Partial<Record<OperationId, () => ToolDefinition>>)[id];
  if (special) return special(lists);
  return operationTool(id, {
    ...(DESCRIPTIONS[id] ? { description: DESCRIPTIONS[id] } : {}),
    ...(id === 'suggestFrameworks' ? { required: ['query'] } : {}),
    ...(id === 'getServiceCard' ? { present: ({ name, version, description }) => ({ name, version, ...(description === undefined ? {} : { description }) }) } : {}),
  });
}

/** Every tool, with each charged tool's cost line (read from the price list) added to its description. */
export async function buildTools(budget: SessionBudget, lists: ServiceLists): Promise<Map<string, ToolDefinition>> {
  const definitions = [...operationIds.filter((id) => !NOT_TOOLS.has(id)).map((id) => tableTool(id, lists)), mappingReportTool(), planReviewTool()];
  const tools = new Map<string, ToolDefinition>();
  for (const definition of definitions) {
    if (definition.charged.length > 0) definition.tool.description = `${definition.tool.description}\n${await budget.costLine(definition.charged)}`;
    tools.set(definition.tool.name, definition);
  }
  return tools;
}

/** The tools `groups` selects: an area's tools, and with `read` every read-only tool. */
export function selectTools(tools: Map<string, ToolDefinition>, groups: readonly ToolGroup[]): Map<string, ToolDefinition> {
  return new Map([...tools].filter(([, definition]) => groups.includes(definition.group) || (groups.includes('read') && definition.tool.annotations?.readOnlyHint === true)));
}
