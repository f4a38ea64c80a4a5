import type {
  IExecuteFunctions,
  INodeExecutionData,
  INodeType,
  INodeTypeBaseDescription,
  INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as account from './actions/account/Account.resource.js';
import * as billing from './actions/billing/Billing.resource.js';
import * as calendar from './actions/calendar/Calendar.resource.js';
import * as document from './actions/document/Document.resource.js';
import * as framework from './actions/framework/Framework.resource.js';
import * as job from './actions/job/Job.resource.js';
import * as library from './actions/library/Library.resource.js';
import * as review from './actions/review/Review.resource.js';
import { router } from './actions/router.js';
import { usableAsTool, withToolDefaults } from './helpers/tool.js';
import { listSearch, loadOptions } from './methods/index.js';

const versionDescription: INodeTypeDescription = {
  displayName: 'Compliance',
  name: 'compliance',
  group: ['transform'],
  // 2: the framework, library document and job fields became resource locators; version 1
  // workflows keep their text fields (locators.ts), and both run through the same execute.
  version: [1, 2],
  subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
  description:
    'Discover regulatory frameworks, generate policy documents, map evidence, search the document library, and manage billing and the review calendar of the compliance engine',
  defaults: { name: 'Compliance' },
  usableAsTool: true,
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
      options: [
        { name: 'Account', value: 'account', description: 'Key check, capabilities, usage and the service description' },
        { name: 'Billing', value: 'billing', description: 'Token balance, credit packs and auto-top-up' },
        { name: 'Calendar', value: 'calendar', description: 'The review cadence and next review date' },
        { name: 'Document', value: 'document', description: 'Generate policies, map your documents against a framework, download results' },
        { name: 'Framework', value: 'framework', description: 'Discover regulatory frameworks and read their details and updates' },
        { name: 'Job', value: 'job', description: 'Status of generation, mapping and library jobs' },
        { name: 'Library', value: 'library', description: 'Your private, searchable store of compliance documents' },
        { name: 'Review', value: 'review', description: 'The review loop: keep the library in step with a set of documents' },
      ],
      default: 'framework',
    },
    ...account.description,
    ...billing.description,
    ...calendar.description,
    ...document.description,
    ...framework.description,
    ...job.description,
    ...library.description,
    ...review.description,
  ]),
};

export class ComplianceV1 implements INodeType {
  description: INodeTypeDescription = {
    ...versionDescription,
    // Relative to the registered entry file (dist/nodes/Compliance/), where the icons are built.
    icon: { light: 'file:compliance.svg', dark: 'file:compliance.dark.svg' },
    subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
    usableAsTool,
  };

  constructor(baseDescription: INodeTypeBaseDescription) {
    this.description = { ...baseDescription, ...this.description };
  }

  methods = { loadOptions, listSearch };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    return await router.call(this);
  }
}
