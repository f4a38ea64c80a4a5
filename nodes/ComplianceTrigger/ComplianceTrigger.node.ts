import type { INodeTypeBaseDescription, IVersionedNodeType } from 'n8n-workflow';
import { VersionedNodeType } from 'n8n-workflow';
import { ComplianceTriggerV1 } from './v1/ComplianceTriggerV1.node.js';

export class ComplianceTrigger extends VersionedNodeType {
  constructor() {
    // The base description is the version's own, written once in its class (n8n's lint reads it there).
    const { displayName, name, icon, group, subtitle, description } = new ComplianceTriggerV1().description;
    const baseDescription: INodeTypeBaseDescription = { displayName, name, icon, group, subtitle, description, defaultVersion: 2 };
    // One implementation serves both versions: version 2 only changed a parameter's type.
    const implementation = new ComplianceTriggerV1(baseDescription);
    const nodeVersions: IVersionedNodeType['nodeVersions'] = { 1: implementation, 2: implementation };
    super(nodeVersions, baseDescription);
  }
}
