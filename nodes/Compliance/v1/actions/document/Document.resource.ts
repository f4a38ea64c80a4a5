import type { INodeProperties } from 'n8n-workflow';
import type { ResourceOperations } from '../../helpers/interfaces.js';
import { operationSelector } from '../../helpers/utils.js';
import * as download from './download.operation.js';
import * as generate from './generate.operation.js';
import * as map from './map.operation.js';

export const operations: ResourceOperations = {
  generate: { operationId: 'generateDocument', name: 'Generate', module: generate },
  map: { operationId: 'mapDocument', name: 'Map', module: map },
  download: { operationId: 'downloadDocument', name: 'Download', module: download },
};

export const description: INodeProperties[] = [
  operationSelector('document', operations, 'generate'),
  ...Object.values(operations).flatMap((entry) => entry.module.description),
];
