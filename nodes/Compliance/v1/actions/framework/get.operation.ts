import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { asData, jsonItems, text } from '../../helpers/utils.js';

const properties: INodeProperties[] = [
  {
    displayName: 'Framework Slug',
    name: 'slug',
    type: 'string',
    default: '',
    required: true,
    placeholder: 'e.g. gdpr',
    description: 'The slug of the framework, as returned by Suggest (for example gdpr, iso-27001, nist-csf-2)',
  },
];

export const description = updateDisplayOptions({ show: { resource: ['framework'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const slug = text(this.getNodeParameter('slug', itemIndex), 'Framework Slug') ?? '';
  return jsonItems(asData(await client.getFramework({ slug })), itemIndex);
}
