import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import type { DownloadFormat } from '../../../../../api/schemas/common.js';
import { jobIdProperties } from '../job/get.operation.js';
import { locatorValue } from '../../helpers/locators.js';
import { text } from '../../helpers/utils.js';

const properties: INodeProperties[] = [
  ...jobIdProperties,
  {
    displayName: 'Format Name or ID',
    name: 'format',
    type: 'options',
    typeOptions: { loadOptionsMethod: 'getFormats' },
    default: 'pdf',
    hint: 'JSON comes back parsed, Markdown as text, PDF and DOCX as a file in a binary field',
    description:
      'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
  },
  {
    displayName: 'Put Output File in Field',
    name: 'binaryPropertyName',
    type: 'string',
    default: 'data',
    required: true,
    hint: 'The name of the output binary field to put the file in',
    description: 'Used for pdf and docx',
    displayOptions: { show: { format: ['pdf', 'docx'] } },
  },
  {
    displayName: 'Options',
    name: 'options',
    type: 'collection',
    placeholder: 'Add Option',
    default: {},
    options: [
      {
        displayName: 'File Name',
        name: 'fileName',
        type: 'string',
        default: '',
        description: 'Name of the output file; defaults to the name the service gives',
      },
    ],
  },
];

export const description = updateDisplayOptions({ show: { resource: ['document'], operation: ['download'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const jobId = locatorValue.call(this, 'jobId', itemIndex, 'Job ID') ?? '';
  const format = (text(this.getNodeParameter('format', itemIndex), 'Format') ?? 'json') as DownloadFormat;
  const options = this.getNodeParameter('options', itemIndex, {}) as { fileName?: string };
  const download = await client.downloadDocument({ jobId, format });
  const fileName = text(options.fileName, 'File Name') ?? download.filename;
  const meta = { jobId, format, fileName, mimeType: download.contentType };
  if (download.kind === 'json') {
    return [{ json: { ...meta, document: download.data }, pairedItem: { item: itemIndex } }];
  }
  if (download.kind === 'text') {
    return [{ json: { ...meta, text: download.text }, pairedItem: { item: itemIndex } }];
  }
  const property = this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
  const binary = await this.helpers.prepareBinaryData(Buffer.from(download.data), fileName, download.contentType.split(';')[0]);
  return [
    {
      json: { ...meta, fileSize: download.data.byteLength },
      binary: { [property]: binary },
      pairedItem: { item: itemIndex },
    },
  ];
}
