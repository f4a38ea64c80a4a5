import type { INodeProperties } from 'n8n-workflow';
import type { ResourceOperations } from '../../helpers/interfaces.js';
import { operationSelector } from '../../helpers/utils.js';
import * as createCheckout from './createCheckout.operation.js';
import * as get from './get.operation.js';
import * as getAutoTopUp from './getAutoTopUp.operation.js';
import * as setAutoTopUp from './setAutoTopUp.operation.js';

export const operations: ResourceOperations = {
  get: { operationId: 'getBilling', name: 'Get', module: get },
  createCheckout: { operationId: 'createCheckout', name: 'Buy Credit Pack', module: createCheckout },
  getAutoTopUp: { operationId: 'getAutoTopUp', name: 'Get Auto-Top-Up', module: getAutoTopUp },
  setAutoTopUp: { operationId: 'setAutoTopUp', name: 'Set Auto-Top-Up', module: setAutoTopUp },
};

export const description: INodeProperties[] = [
  operationSelector('billing', operations, 'get'),
  ...Object.values(operations).flatMap((entry) => entry.module.description),
];
