import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { operations } from '../../../../../api/operations.js';
import { locatorValue } from '../../helpers/locators.js';
import { spendOnce, spendProperties } from '../../helpers/spend.js';
import { submitJob, waitProperties } from '../../helpers/jobs.js';
import { documentIdProperties } from './get.operation.js';
import { contentProperty } from './ingest.operation.js';

const displayOptions = { show: { resource: ['library'], operation: ['refresh'] } };

export const description: INodeProperties[] = [
  ...updateDisplayOptions(displayOptions, [...documentIdProperties, { ...contentProperty, description: `${contentProperty.description}; replaces the stored text` }, ...spendProperties('the refresh')]),
  ...(operations.refreshLibraryDocument.createsJob ? waitProperties(displayOptions) : []),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const id = locatorValue.call(this, 'documentId', itemIndex, 'Document ID') ?? '';
  const content = this.getNodeParameter('content', itemIndex) as string;
  return await spendOnce.call(this, itemIndex, client, 'refreshLibraryDocument', 'Refresh Library Document', { id, content }, () =>
    submitJob.call(this, itemIndex, client, () => client.refreshLibraryDocument({ id, content })),
  );
}
