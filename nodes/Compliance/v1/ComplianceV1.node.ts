import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeBaseDescription, INodeTypeDescription } from 'n8n-workflow';
import { router } from './actions/router.js';
import { versionDescription } from './actions/versionDescription.js';
import { usableAsTool } from './helpers/tool.js';
import { listSearch, loadOptions } from './methods/index.js';

/**
 * Versions 1 and 2 of the Compliance node. As in n8n's Airtable node, the versions' description is
 * its own file (actions/versionDescription.ts: versions, connections, credential, parameters); the
 * node's identity stays in the class, written once: n8n's strict lint reads the icon, subtitle and
 * usableAsTool from the class's own object literal (icon-validation, require-node-description-fields,
 * node-usable-as-tool), and Compliance.node.ts takes its base description from it.
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
    subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
    description:
      'Discover regulatory frameworks, generate policy documents, map evidence, search the document library, and manage billing and the review calendar of the compliance engine',
    usableAsTool,
    ...versionDescription,
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
