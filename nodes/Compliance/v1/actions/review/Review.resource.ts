import type { INodeProperties } from 'n8n-workflow';
import type { ResourceOperations } from '../../helpers/interfaces.js';
import { operationSelector } from '../../helpers/utils.js';
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
};

export const description: INodeProperties[] = [
  operationSelector('review', operations, 'syncDocuments'),
  ...Object.values(operations).flatMap((entry) => entry.module.description),
];
