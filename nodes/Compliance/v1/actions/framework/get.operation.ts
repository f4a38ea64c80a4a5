import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { frameworkLocator, locatorValue, versioned } from '../../helpers/locators.js';
import { asData, jsonItems } from '../../helpers/utils.js';

const properties: INodeProperties[] = versioned(
  {
    displayName: 'Framework Slug',
    name: 'slug',
    type: 'string',
    default: '',
    required: true,
    placeholder: 'e.g. gdpr',
    description: 'The slug of the framework, as returned by Suggest (for example gdpr, iso-27001, nist-csf-2)',
  },
  frameworkLocator({ name: 'slug', description: 'The framework: a verified one from the list, or any slug Suggest returned' }),
);

export const description = updateDisplayOptions({ show: { resource: ['framework'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const slug = locatorValue.call(this, 'slug', itemIndex, 'Framework') ?? '';
  return jsonItems(asData(await client.getFramework({ slug })), itemIndex);
}
