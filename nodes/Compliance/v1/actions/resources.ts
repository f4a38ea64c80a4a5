/** The node's resources, each with its operations; the operation table's `resource` names them. */
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

export const resources: Record<Resource | 'review', { operations: ResourceOperations; description: typeof account.description }> = {
  account,
  billing,
  calendar,
  document,
  framework,
  job,
  library,
  review,
};

/** The names the Resource dropdown shows. */
export const resourceNames: Record<Resource | 'review', string> = {
  account: 'Account',
  billing: 'Billing',
  calendar: 'Calendar',
  document: 'Document',
  framework: 'Framework',
  job: 'Job',
  library: 'Library',
  review: 'Review',
};
