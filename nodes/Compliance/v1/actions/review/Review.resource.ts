import type { INodeProperties } from 'n8n-workflow';
import type { ResourceOperations } from '../../helpers/interfaces.js';
import { operationSelector } from '../../helpers/utils.js';
import * as mapPolicySet from './mapPolicySet.operation.js';
import * as planGapIssues from './planGapIssues.operation.js';
import * as syncDocuments from './syncDocuments.operation.js';

export const operations: ResourceOperations = {
  syncDocuments: {
    operationId: 'ingestLibraryDocument',
    name: 'Sync Documents',
    module: syncDocuments,
    override: {
      description: 'Bring the library in step with a set of documents. Priced first.',
      action: 'Sync documents into the library',
    },
  },
  mapPolicySet: {
    operationId: 'mapDocument',
    name: 'Map Policy Set',
    module: mapPolicySet,
    override: { description: "Map the items' documents and judge coverage. Charged.", action: 'Map a policy set against a framework' },
  },
  planGapIssues: {
    operationId: 'mapDocument',
    name: 'Plan Gap Issues',
    module: planGapIssues,
    override: { description: 'Issues to create, update or close for the gaps. Free.', action: 'Plan gap issues' },
  },
};

export const description: INodeProperties[] = [
  operationSelector('review', operations, 'syncDocuments'),
  ...Object.values(operations).flatMap((entry) => entry.module.description),
];
