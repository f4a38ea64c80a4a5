import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { operations } from '../../../../../api/operations.js';
import { LIMITS } from '../../../../../api/schemas/common.js';
import { spendOnce, spendProperties } from '../../helpers/spend.js';
import { compact, tagsOf, text } from '../../helpers/utils.js';
import { submitJob, waitProperties } from '../../helpers/jobs.js';

const displayOptions = { show: { resource: ['library'], operation: ['ingest'] } };

export const contentProperty: INodeProperties = {
  displayName: 'Content',
  name: 'content',
  type: 'string',
  typeOptions: { rows: 8 },
  default: '',
  required: true,
  description: `The document text, ${LIMITS.libraryMinChars} to ${LIMITS.libraryMaxChars.toLocaleString('en-US')} characters (Unicode code points), not blank`,
};

const properties: INodeProperties[] = [
  {
    displayName: 'Title',
    name: 'title',
    type: 'string',
    default: '',
    required: true,
    placeholder: 'e.g. Access Control Policy',
  },
  contentProperty,
  {
    displayName: 'Additional Fields',
    name: 'additionalFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    options: [
      { displayName: 'Category', name: 'category', type: 'string', default: '', description: 'Category in your library structure; classified automatically when empty' },
      { displayName: 'Filename', name: 'filename', type: 'string', default: '', placeholder: 'e.g. policies/access-control.md', description: 'Where the document lives, for example its repository path' },
      { displayName: 'Tags', name: 'tags', type: 'string', default: '', placeholder: 'e.g. iso27001, access', description: 'Comma-separated tags' },
    ],
  },
  ...spendProperties('the ingest'),
];

export const description: INodeProperties[] = [
  ...updateDisplayOptions(displayOptions, properties),
  ...(operations.ingestLibraryDocument.createsJob ? waitProperties(displayOptions) : []),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
  const input = {
    title: text(this.getNodeParameter('title', itemIndex), 'Title') ?? '',
    content: this.getNodeParameter('content', itemIndex) as string,
    ...compact({ category: text(fields.category, 'Category'), tags: tagsOf(fields.tags), filename: text(fields.filename, 'Filename') }),
  };
  return await spendOnce.call(this, itemIndex, client, 'ingestLibraryDocument', 'Ingest Library Document', input, () => submitJob.call(this, itemIndex, client, () => client.ingestLibraryDocument(input)));
}
