import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { operations } from '../../../../../api/operations.js';
import type { UploadFile } from '../../../../../api/schemas/requests.js';
import { UPLOAD_EXTENSIONS, uploadKindFor } from '../../../../../api/upload.js';
import { UPLOAD_KINDS } from '../../../../../api/schemas/common.js';
import { frameworkLocator, locatorValue, versioned } from '../../helpers/locators.js';
import { spendOnce, spendProperties } from '../../helpers/spend.js';
import { text } from '../../helpers/utils.js';
import { submitJob, waitProperties } from '../../helpers/jobs.js';

const displayOptions = { show: { resource: ['document'], operation: ['map'] } };

const properties: INodeProperties[] = [
  ...versioned(
    {
      displayName: 'Framework Name or ID',
      name: 'framework',
      type: 'options',
      typeOptions: { loadOptionsMethod: 'getVerifiedFrameworks' },
      default: '',
      required: true,
      hint: 'Only verified frameworks can be mapped against',
      description:
        'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
    },
    { ...frameworkLocator({ description: 'The verified framework to map against' }), hint: 'Only verified frameworks can be mapped against' },
  ),
  {
    displayName: 'Input Data',
    name: 'inputDataType',
    type: 'options',
    options: [
      { name: 'Binary File', value: 'binary', description: 'Upload a file from an input binary property' },
      { name: 'Text', value: 'text', description: 'Send the document text' },
    ],
    default: 'binary',
  },
  {
    displayName: 'Input Binary Field',
    name: 'binaryPropertyName',
    type: 'string',
    default: 'data',
    required: true,
    hint: 'The name of the input binary field holding the file',
    description: `The binary field with the document. Accepted: ${UPLOAD_EXTENSIONS.join(', ')}, up to 10 MB.`,
    displayOptions: { show: { inputDataType: ['binary'] } },
  },
  {
    displayName: 'Content',
    name: 'content',
    type: 'string',
    typeOptions: { rows: 8 },
    default: '',
    required: true,
    description: 'The text of the document to map',
    displayOptions: { show: { inputDataType: ['text'] } },
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
        description: 'Name to upload the file under; its extension tells the file kind. Defaults to the binary file name.',
        displayOptions: { show: { '/inputDataType': ['binary'] } },
      },
      { displayName: 'Title', name: 'title', type: 'string', default: '', description: 'A title for the mapping report' },
    ],
  },
  ...spendProperties('the mapping'),
];

export const description: INodeProperties[] = [
  ...updateDisplayOptions(displayOptions, properties),
  ...(operations.mapDocument.createsJob ? waitProperties(displayOptions) : []),
];

/** A file name with an extension the service accepts, from the binary's name or MIME type. */
export function uploadName(fileName: string | undefined, mimeType: string | undefined): string | undefined {
  if (fileName && uploadKindFor(fileName)) return fileName;
  const base = (fileName ?? 'document').replace(/\.[^./\\]*$/, '') || 'document';
  const mime = mimeType?.split(';')[0]?.trim().toLowerCase();
  const kind = mime ? UPLOAD_KINDS.find((candidate) => candidate.contentType.split(';')[0] === mime) : undefined;
  if (kind) return `${base}${kind.extension}`;
  return fileName;
}

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const framework = locatorValue.call(this, 'framework', itemIndex, 'Framework') ?? '';
  const inputDataType = this.getNodeParameter('inputDataType', itemIndex) as string;
  const options = this.getNodeParameter('options', itemIndex, {}) as { fileName?: string; title?: string };
  const title = text(options.title, 'Title');
  let input: { framework: string; title?: string; content?: string; file?: UploadFile };
  if (inputDataType === 'binary') {
    const property = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
    const binary = this.helpers.assertBinaryData(itemIndex, property);
    const buffer = await this.helpers.getBinaryDataBuffer(itemIndex, property);
    const filename = uploadName(text(options.fileName, 'File Name') ?? binary.fileName, binary.mimeType);
    if (!filename) {
      throw new NodeOperationError(this.getNode(), `The binary field "${property}" has no file name to tell its kind`, {
        itemIndex,
        description: `Set Options → File Name with one of the extensions ${UPLOAD_EXTENSIONS.join(', ')}.`,
      });
    }
    input = { framework, file: { data: new Uint8Array(buffer), filename, ...(binary.mimeType ? { contentType: binary.mimeType } : {}) } };
  } else {
    input = { framework, content: this.getNodeParameter('content', itemIndex) as string };
  }
  if (title) input.title = title;
  return await spendOnce.call(this, itemIndex, client, 'mapDocument', 'Map Document', input, () => submitJob.call(this, itemIndex, client, () => client.mapDocument(input)));
}
