import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { locatorValue } from '../../helpers/locators.js';
import { asData, jsonItems } from '../../helpers/utils.js';
import { documentIdProperties } from './get.operation.js';

export const description = updateDisplayOptions({ show: { resource: ['library'], operation: ['delete'] } }, documentIdProperties);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const id = locatorValue.call(this, 'documentId', itemIndex, 'Document ID') ?? '';
  return jsonItems(asData(await client.deleteLibraryDocument({ id })), itemIndex);
}
