import type { INodeProperties } from 'n8n-workflow';
import type { ResourceOperations } from '../../helpers/interfaces.js';
import { operationSelector } from '../../helpers/utils.js';
import * as get from './get.operation.js';
import * as suggest from './suggest.operation.js';

export const operations: ResourceOperations = {
  suggest: { operationId: 'suggestFrameworks', name: 'Suggest', module: suggest },
  get: { operationId: 'getFramework', name: 'Get', module: get },
};

export const description: INodeProperties[] = [
  operationSelector('framework', operations, 'suggest'),
  ...Object.values(operations).flatMap((entry) => entry.module.description),
];
