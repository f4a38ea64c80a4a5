import { NodeConnectionTypes, type INodeTypeDescription } from 'n8n-workflow';
import { withToolDefaults } from '../helpers/tool.js';
import { resources } from './resources.js';

/** The description of versions 1 and 2 beyond the node's identity (ComplianceV1.node.ts): versions, connections, credential, parameters. */
export const versionDescription: Omit<INodeTypeDescription, 'displayName' | 'name' | 'group' | 'description'> = {
  version: [1, 2],
  defaults: { name: 'Compliance' },
  inputs: [NodeConnectionTypes.Main],
  outputs: [NodeConnectionTypes.Main],
  credentials: [{ name: 'complianceApi', required: true }],
  // The fields an agent fills default to $fromAI() on Compliance Tool (helpers/tool.ts).
  properties: withToolDefaults([
    {
      displayName: 'Resource',
      name: 'resource',
      type: 'options',
      noDataExpression: true,
      options: Object.entries(resources).map(([value, resource]) => ({ name: resource.name, value, description: resource.summary })),
      default: 'framework',
    },
    ...Object.values(resources).flatMap((resource) => resource.description),
  ]),
};
