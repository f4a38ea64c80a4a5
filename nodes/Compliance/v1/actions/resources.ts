/**
 * The node's resources, written once: the name and summary the Resource dropdown shows, each
 * resource's operations and their fields. The operation table's `resource` names them.
 */
import type { INodeProperties } from 'n8n-workflow';
import type { Resource } from '../../../../api/operations.js';
import type { ResourceOperations } from '../helpers/interfaces.js';
import * as account from './account/Account.resource.js';
import * as billing from './billing/Billing.resource.js';
import * as calendar from './calendar/Calendar.resource.js';
import * as document from './document/Document.resource.js';
import * as framework from './framework/Framework.resource.js';
import * as job from './job/Job.resource.js';
import * as library from './library/Library.resource.js';
import * as review from './review/Review.resource.js';

interface ResourceEntry {
  /** The name the Resource dropdown shows. */
  name: string;
  summary: string;
  operations: ResourceOperations;
  /** The operation dropdown and the fields of every operation. */
  description: INodeProperties[];
}

const entry = (name: string, summary: string, module: Pick<ResourceEntry, 'operations' | 'description'>): ResourceEntry => ({
  name,
  summary,
  operations: module.operations,
  description: module.description,
});

export const resources: Record<Resource | 'review', ResourceEntry> = {
  account: entry('Account', 'Key check, capabilities, usage and the service description', account),
  billing: entry('Billing', 'Token balance, credit packs and auto-top-up', billing),
  calendar: entry('Calendar', 'The review cadence and next review date', calendar),
  document: entry('Document', 'Generate policies, map your documents against a framework, download results', document),
  framework: entry('Framework', 'Discover regulatory frameworks and read their details and updates', framework),
  job: entry('Job', 'Status of generation, mapping and library jobs', job),
  library: entry('Library', 'Your private, searchable store of compliance documents', library),
  review: entry('Review', 'The review loop: keep the library in step with a set of documents', review),
};
