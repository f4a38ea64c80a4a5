import { NodeConnectionTypes, type INodeTypeDescription } from 'n8n-workflow';

/** The description of versions 1 and 2 beyond the node's identity (ComplianceTriggerV1.node.ts): versions, polling, connections, credential, parameters. */
export const versionDescription: Omit<INodeTypeDescription, 'displayName' | 'name' | 'group' | 'description'> = {
  version: [1, 2],
  defaults: { name: 'Compliance Trigger' },
  polling: true,
  inputs: [],
  outputs: [NodeConnectionTypes.Main],
  credentials: [{ name: 'complianceApi', required: true }],
  properties: [
    {
      displayName: 'Event',
      name: 'event',
      type: 'options',
      options: [
        {
          name: 'Balance Low',
          value: 'balanceLow',
          description: 'The estimated days of token balance remaining fall under a threshold (once per dip)',
        },
        {
          name: 'Framework Updated',
          value: 'frameworkUpdated',
          description: 'A chosen framework lists a new dated update',
        },
        {
          name: 'Library Document Changed',
          value: 'libraryDocumentChanged',
          description: 'A library document was added, refreshed (new version or content) or removed',
        },
        {
          name: 'Review Due',
          value: 'reviewDue',
          description: 'The next review date of the review calendar has been reached',
        },
      ],
      default: 'reviewDue',
    },
    {
      displayName: 'Threshold (Days)',
      name: 'thresholdDays',
      type: 'number',
      typeOptions: { minValue: 0 },
      default: 7,
      description: 'Fire when the estimated days of balance remaining fall under this number',
      displayOptions: { show: { event: ['balanceLow'] } },
    },
    {
      displayName: 'Framework Slugs',
      name: 'frameworks',
      type: 'string',
      default: '',
      required: true,
      placeholder: 'e.g. gdpr, iso-27001',
      description: 'Comma-separated slugs of the frameworks to watch. The first poll records their current updates; later ones fire for new updates.',
      displayOptions: { show: { event: ['frameworkUpdated'], '@version': [1] } },
    },
    {
      displayName: 'Framework Names or IDs',
      name: 'frameworks',
      type: 'multiOptions',
      typeOptions: { loadOptionsMethod: 'getVerifiedFrameworks' },
      default: [],
      required: true,
      description:
        'The frameworks to watch; the first poll records their current updates. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
      displayOptions: { show: { event: ['frameworkUpdated'], '@version': [{ _cnd: { gte: 2 } }] } },
    },
    {
      displayName: 'Category',
      name: 'category',
      type: 'string',
      default: '',
      description: 'Only watch documents of this library category. The first poll records the library; later ones fire for changes.',
      displayOptions: { show: { event: ['libraryDocumentChanged'] } },
    },
  ],
};
