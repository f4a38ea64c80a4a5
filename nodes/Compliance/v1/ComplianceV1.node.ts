import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeBaseDescription, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { resources } from './actions/resources.js';
import { router } from './actions/router.js';
import { usableAsTool, withToolDefaults } from './helpers/tool.js';
import { listSearch, loadOptions } from './methods/index.js';

/**
 * Versions 1 and 2 of the Compliance node, their description written once, here: Compliance.node.ts
 * takes its base description (name, icon, subtitle, summary) from it. In the class, not in a
 * versionDescription.ts as in n8n's Airtable node: n8n's strict lint reads the icon, subtitle and
 * usableAsTool from the node class and wants a description in a file named after the node.
 * 2: the framework, library document and job fields became resource locators; version 1 workflows
 * keep their text fields (helpers/locators.ts), and both run through the same execute.
 */
export class ComplianceV1 implements INodeType {
  description: INodeTypeDescription = {
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

  /** With the versioned node's base description (Compliance.node.ts builds it from this one). */
  constructor(baseDescription?: INodeTypeBaseDescription) {
    if (baseDescription) this.description = { ...baseDescription, ...this.description };
  }

  methods = { loadOptions, listSearch };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    return await router.call(this);
  }
}
