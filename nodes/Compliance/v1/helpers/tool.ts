/**
 * The node as an AI-agent tool. n8n builds "Compliance Tool" from this node's description with
 * `usableAsTool.replacements` spread over it; the replacements give the tool a description written
 * for a model and make the fields an agent must fill "Defined automatically by the model" from the
 * start (a `$fromAI()` default carrying n8n's auto-generated marker, as the editor writes it when a
 * user switches a field over), so the tool works without switching each field by hand.
 */
import type { INodeProperties, UsableAsToolDescription } from 'n8n-workflow';

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

function fromAi(property: INodeProperties, hint: string): string {
  const key = property.displayName.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 63);
  const description = hint.replace(/[`\\]/g, '');
  return `={{ ${MARKER} $fromAI('${key}', \`${description}\`, 'string') }}`;
}

/** The properties of the tool: model-filled fields default to `$fromAI()`; the rest as they are. */
export function toolProperties(properties: INodeProperties[]): INodeProperties[] {
  return properties.map((property) => {
    const hint = MODEL_FILLED[property.name];
    if (!hint || !['string', 'resourceLocator'].includes(property.type)) return property;
    const value = fromAi(property, hint);
    return { ...property, default: property.type === 'resourceLocator' ? { __rl: true, mode: 'id', value } : value };
  });
}

export function usableAsTool(properties: INodeProperties[]): UsableAsToolDescription {
  // `properties` is not among the typed replacement keys, but n8n spreads every key of
  // `replacements` over the tool's description (createAiTools in n8n's tool-generation).
  const replacements = { description: TOOL_DESCRIPTION, properties: toolProperties(properties) };
  return { replacements: replacements as UsableAsToolDescription['replacements'] };
}
