import type { INodeProperties } from 'n8n-workflow';
import type { ResourceOperations } from '../../helpers/interfaces.js';
import { operationSelector } from '../../helpers/utils.js';
import * as getCapabilities from './getCapabilities.operation.js';
import * as getOpenApi from './getOpenApi.operation.js';
import * as getServiceCard from './getServiceCard.operation.js';
import * as getUsage from './getUsage.operation.js';
import * as ping from './ping.operation.js';

export const operations: ResourceOperations = {
  ping: { operationId: 'ping', name: 'Check Key', module: ping },
  getCapabilities: { operationId: 'getCapabilities', name: 'Get Capabilities', module: getCapabilities },
  getUsage: { operationId: 'getUsage', name: 'Get Usage', module: getUsage },
  getServiceCard: { operationId: 'getServiceCard', name: 'Get Service Card', module: getServiceCard },
  getOpenApi: { operationId: 'getOpenApi', name: 'Get OpenAPI Description', module: getOpenApi },
};

export const description: INodeProperties[] = [
  operationSelector('account', operations, 'ping'),
  ...Object.values(operations).flatMap((entry) => entry.module.description),
];
