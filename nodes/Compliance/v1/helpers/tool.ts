/**
 * The node as an AI-agent tool ("Compliance Tool", which n8n derives from this node's description).
 *
 * The fields an agent must fill are "Defined automatically by the model" from the start: a
 * `$fromAI()` default carrying n8n's auto-generated marker, as the editor writes it when a user
 * switches a field over. n8n applies `usableAsTool.replacements` only to the description it serves
 * the editor; when a workflow runs, the tool's parameters are filled from the plain node's
 * properties (node-types.ts getByNameAndVersion → convertNodeToAiTool, then the Workflow
 * constructor's NodeHelpers.getNodeParameters), and the editor saves no field left at its default.
 * So the `$fromAI()` defaults live in the node's own properties, as twins shown only on the tool
 * (display option `@tool`, true when the node type's name ends in "Tool"); the plain node keeps its
 * empty fields.
 */
import type { INodeProperties, IDisplayOptions, UsableAsToolDescription } from 'n8n-workflow';

export const TOOL_DESCRIPTION =
  "Compliance engine. Search the organisation's private compliance library (policies, procedures) and read a document; " +
  'suggest which regulatory frameworks apply to an organisation described in plain words; read a framework (controls, dated updates); ' +
  'generate a policy document, or map a document against a verified framework (both return a job: wait for it, then download); ' +
  'read the token balance and the review calendar. Identifiers come from earlier calls: a framework slug such as iso-27001, ' +
  'a library document ID, a job ID (a UUID). Generate, Map, Ingest, Refresh and Search spend tokens on live keys.';

/** n8n's marker for a `$fromAI()` the editor generated (FROM_AI_AUTO_GENERATED_MARKER in n8n-workflow). */
const MARKER = '/*n8n-auto-generated-fromAI-override*/';

/** Fields a model fills, with what it is told about each. */
const MODEL_FILLED: Record<string, string> = {
  query: 'What to search for or what the organisation does, in plain words',
  content: 'The full text of the document',
  title: 'A short title for the document',
  jobId: 'The job ID (a UUID) an earlier Generate, Map, Ingest or Refresh returned',
  documentId: 'The library document ID, from an earlier Search or Get Many',
  framework: 'The framework slug (for example iso-27001) or name',
  slug: 'The framework slug, for example iso-27001',
};

/** Choices whose default differs for a model: a document read by an agent is read for its text. */
const TOOL_CHOICES: Record<string, boolean> = { includeContent: true };

/** The parameter's own name is the key the model fills (query, documentId, …: the API's words). */
function fromAi(property: INodeProperties, hint: string): string {
  const description = hint.replace(/[`\\]/g, '');
  return `={{ ${MARKER} $fromAI('${property.name}', \`${description}\`, 'string') }}`;
}

function toolDefault(property: INodeProperties): INodeProperties['default'] | undefined {
  const hint = MODEL_FILLED[property.name];
  // Text, a locator, or a list loaded from the service (version 1's framework picker).
  const fillable = ['string', 'resourceLocator'].includes(property.type) || (property.type === 'options' && property.typeOptions?.loadOptionsMethod);
  if (hint && fillable) {
    const value = fromAi(property, hint);
    return property.type === 'resourceLocator' ? { __rl: true, mode: 'id', value } : value;
  }
  if (property.type === 'boolean' && property.name in TOOL_CHOICES) return TOOL_CHOICES[property.name];
  return undefined;
}

function withCondition(options: IDisplayOptions | undefined, side: 'show' | 'hide'): IDisplayOptions {
  return { ...options, [side]: { ...options?.[side], '@tool': [true] } };
}

const ON_TOOL = { show: { '@tool': [true] } };

/**
 * The tool's description fields. n8n adds the same two to a tool whose node has none, but the
 * manual description's default is then the description of whatever n8n converted: the replacements'
 * in the editor, the plain node's when a workflow runs (so a description left at its default would
 * not be what the editor showed). Ours default to TOOL_DESCRIPTION in both.
 */
const DESCRIPTION_FIELDS: INodeProperties[] = [
  {
    displayName: 'Tool Description',
    name: 'descriptionType',
    type: 'options',
    noDataExpression: true,
    displayOptions: ON_TOOL,
    options: [
      { name: 'Set Automatically', value: 'auto', description: 'Automatically set based on resource and operation' },
      { name: 'Set Manually', value: 'manual', description: 'Manually set the description' },
    ],
    default: 'auto',
  },
  {
    displayName: 'Description',
    name: 'toolDescription',
    type: 'string',
    default: TOOL_DESCRIPTION,
    required: true,
    typeOptions: { rows: 2 },
    displayOptions: { show: { ...ON_TOOL.show, descriptionType: ['manual'] } },
    description: 'Explain to the model what this tool does; a specific description helps it call the tool when it should',
  },
];

/**
 * The node's properties for both the node and the tool: the tool's description fields first (shown
 * only on the tool, where n8n puts its own), and a tool twin after each field a model fills (or
 * whose choice differs for a model): the original hidden on the tool, the twin shown only there with
 * the tool default.
 */
export function withToolDefaults(properties: INodeProperties[]): INodeProperties[] {
  return [...DESCRIPTION_FIELDS, ...properties].flatMap((property) => {
    const value = toolDefault(property);
    if (value === undefined) return [property];
    return [
      { ...property, displayOptions: withCondition(property.displayOptions, 'hide') },
      { ...property, default: value, displayOptions: withCondition(property.displayOptions, 'show') },
    ];
  });
}

/** The tool's description in n8n's node list. */
export const usableAsTool: UsableAsToolDescription = { replacements: { description: TOOL_DESCRIPTION } };
