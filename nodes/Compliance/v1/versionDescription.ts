/**
 * The description of the Compliance node's versions 1 and 2, written once: Compliance.node.ts takes
 * its base description (name, icon, subtitle, summary) from here. 2: the framework, library
 * document and job fields became resource locators; version 1 workflows keep their text fields
 * (helpers/locators.ts), and both run through the same execute.
 */
import type { INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { resources } from './actions/resources.js';
import { usableAsTool, withToolDefaults } from './helpers/tool.js';

export const versionDescription: INodeTypeDescription = {
  displayName: 'Compliance',
  name: 'compliance',
  // Relative to the registered entry file (dist/nodes/Compliance/), where the icons are built.
  icon: { light: 'file:compliance.svg', dark: 'file:compliance.dark.svg' },
  group: ['transform'],
  version: [1, 2],
  subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
  description:
    'Discover regulatory frameworks, generate policy documents, map evidence, search the document library, and manage billing and the review calendar of the compliance engine',
  defaults: { name: 'Compliance' },
  usableAsTool,
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
