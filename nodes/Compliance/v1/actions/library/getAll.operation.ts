import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { operations } from '../../../../../api/operations.js';
import { asData, compact, jsonItems, returnAllProperties, text } from '../../helpers/utils.js';

const displayOptions = { show: { resource: ['library'], operation: ['getAll'] } };

const properties: INodeProperties[] = [
  {
    displayName: 'Filters',
    name: 'filters',
    type: 'collection',
    placeholder: 'Add Filter',
    default: {},
    options: [
      { displayName: 'Category', name: 'category', type: 'string', default: '' },
      { displayName: 'Tag', name: 'tag', type: 'string', default: '' },
    ],
  },
];

export const description: INodeProperties[] = [
  ...(operations.listLibrary.paginated ? returnAllProperties(displayOptions) : []),
  ...updateDisplayOptions(displayOptions, properties),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
  const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);
  const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
  const filter = compact({ category: text(filters.category, 'Category'), tag: text(filters.tag, 'Tag') });
  const documents: IDataObject[] = [];
  if (limit > 0) {
    // Follows the listing's pages until the limit is reached; no page beyond it is requested.
    for await (const document of client.iterateLibrary({ ...filter, ...(returnAll ? {} : { limit: Math.min(limit, 100) }) })) {
      documents.push(asData(document));
      if (documents.length >= limit) break;
    }
  }
  return jsonItems(documents, itemIndex);
}
