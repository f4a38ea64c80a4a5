import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { asData, jsonItems } from '../../helpers/utils.js';

/** getOpenApi: no parameters. */
export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  return jsonItems(asData(await client.getOpenApi()), itemIndex);
}
