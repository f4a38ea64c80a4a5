import type { INodeProperties } from 'n8n-workflow';
import type { ResourceOperations } from '../../helpers/interfaces.js';
import { operationSelector } from '../../helpers/utils.js';
import * as get from './get.operation.js';
import * as wait from './wait.operation.js';

export const operations: ResourceOperations = {
  get: { operationId: 'getJob', name: 'Get', module: get },
  wait: {
    operationId: 'getJob',
    name: 'Wait',
    module: wait,
    override: {
      description:
        'Poll a job until it is completed or failed, within a time limit.',
      action: 'Wait for a job',
    },
  },
};

export const description: INodeProperties[] = [
  operationSelector('job', operations, 'get'),
  ...Object.values(operations).flatMap((entry) => entry.module.description),
];
