import type { INodeProperties } from 'n8n-workflow';
import type { ResourceOperations } from '../../helpers/interfaces.js';
import { operationSelector } from '../../helpers/utils.js';
import * as deleteDocument from './delete.operation.js';
import * as get from './get.operation.js';
import * as getAll from './getAll.operation.js';
import * as ingest from './ingest.operation.js';
import * as refresh from './refresh.operation.js';
import * as search from './search.operation.js';

export const operations: ResourceOperations = {
  ingest: { operationId: 'ingestLibraryDocument', name: 'Ingest', module: ingest },
  refresh: { operationId: 'refreshLibraryDocument', name: 'Refresh', module: refresh },
  getAll: { operationId: 'listLibrary', name: 'Get Many', module: getAll },
  get: { operationId: 'getLibraryDocument', name: 'Get', module: get },
  delete: { operationId: 'deleteLibraryDocument', name: 'Delete', module: deleteDocument },
  search: { operationId: 'searchLibrary', name: 'Search', module: search },
};

export const description: INodeProperties[] = [
  operationSelector('library', operations, 'search'),
  ...Object.values(operations).flatMap((entry) => entry.module.description),
];
