import type { INodeProperties } from 'n8n-workflow';
import type { ResourceOperations } from '../../helpers/interfaces.js';
import { operationSelector } from '../../helpers/utils.js';
import * as get from './get.operation.js';
import * as set from './set.operation.js';

export const operations: ResourceOperations = {
  get: { operationId: 'getCalendar', name: 'Get', module: get },
  set: { operationId: 'setCalendar', name: 'Set', module: set },
};

export const description: INodeProperties[] = [
  operationSelector('calendar', operations, 'get'),
  ...Object.values(operations).flatMap((entry) => entry.module.description),
];
