import type { INodeTypeBaseDescription, IVersionedNodeType } from 'n8n-workflow';
import { VersionedNodeType } from 'n8n-workflow';
import { ComplianceV1 } from './v1/ComplianceV1.node.js';

export class Compliance extends VersionedNodeType {
  constructor() {
    const baseDescription: INodeTypeBaseDescription = {
      displayName: 'Compliance',
      name: 'compliance',
      icon: { light: 'file:compliance.svg', dark: 'file:compliance.dark.svg' },
      group: ['transform'],
      subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
      description:
        'Discover regulatory frameworks, generate policy documents, map evidence, search the document library, and manage billing and the review calendar of the compliance engine',
      defaultVersion: 2,
      usableAsTool: true,
    };
    // One implementation serves both versions: version 2 only changed parameter types.
    const implementation = new ComplianceV1(baseDescription);
    const nodeVersions: IVersionedNodeType['nodeVersions'] = { 1: implementation, 2: implementation };
    super(nodeVersions, baseDescription);
  }
}
