import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { documentLocator, locatorValue, versioned } from '../../helpers/locators.js';
import { asData, jsonItems } from '../../helpers/utils.js';

const documentIdText: INodeProperties = {
  displayName: 'Document ID',
  name: 'documentId',
  type: 'string',
  default: '',
  required: true,
  description: 'The ID of the library document, as returned by Ingest, Get Many or Search',
};

/** Document ID: text in version 1, a resource locator (list or ID) from version 2. */
export const documentIdProperties = versioned(documentIdText, documentLocator);

const properties: INodeProperties[] = [
  ...documentIdProperties,
  {
    displayName: 'Include Content',
    name: 'includeContent',
    type: 'boolean',
    default: false,
    description: 'Whether to include the stored text of the document',
  },
];

export const description = updateDisplayOptions({ show: { resource: ['library'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const id = locatorValue.call(this, 'documentId', itemIndex, 'Document ID') ?? '';
  const includeContent = this.getNodeParameter('includeContent', itemIndex, false) as boolean;
  const document = await client.getLibraryDocument({ id, ...(includeContent ? { include: 'content' as const } : {}) });
  return jsonItems(asData(document), itemIndex);
}
