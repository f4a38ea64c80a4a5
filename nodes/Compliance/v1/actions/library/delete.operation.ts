import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { asData, jsonItems, text } from '../../helpers/utils.js';
import { documentIdProperty } from './get.operation.js';

export const description = updateDisplayOptions({ show: { resource: ['library'], operation: ['delete'] } }, [documentIdProperty]);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const id = text(this.getNodeParameter('documentId', itemIndex), 'Document ID') ?? '';
  return jsonItems(asData(await client.deleteLibraryDocument({ id })), itemIndex);
}
