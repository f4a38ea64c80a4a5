/** The document set as input items: each item one document, a path and its text or a text file. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { RepoFile } from '../../../../../review/documents.js';
import { normaliseRepoPath } from '../../../../../review/glob.js';
import { text } from '../../helpers/utils.js';

export const documentInputProperties: INodeProperties[] = [
  {
    displayName: 'Path',
    name: 'path',
    type: 'string',
    default: '={{ $json.path }}',
    required: true,
    description: "Each item's path in the set, e.g. policies/access.md; it becomes the library document's file name",
  },
  {
    displayName: 'Input Data',
    name: 'inputDataType',
    type: 'options',
    options: [
      { name: 'Text', value: 'text', description: 'The document text from a field' },
      { name: 'Binary File', value: 'binary', description: 'A text file (Markdown, plain text) in a binary field' },
    ],
    default: 'text',
  },
  {
    displayName: 'Content',
    name: 'content',
    type: 'string',
    default: '={{ $json.content }}',
    description: "Each item's document text",
    displayOptions: { show: { inputDataType: ['text'] } },
  },
  {
    displayName: 'Input Binary Field',
    name: 'binaryPropertyName',
    type: 'string',
    default: 'data',
    required: true,
    hint: 'The name of the input binary field holding the text file',
    displayOptions: { show: { inputDataType: ['binary'] } },
  },
];

async function fileOf(context: IExecuteFunctions, itemIndex: number, operation: string): Promise<RepoFile> {
  const path = text(context.getNodeParameter('path', itemIndex), 'Path');
  if (!path) {
    throw new NodeOperationError(context.getNode(), `Path in ${operation} is empty for item ${itemIndex}`, {
      itemIndex,
      description: 'Give every item a path, for example {{ $json.path }} from Read Files or a Git node.',
    });
  }
  if (context.getNodeParameter('inputDataType', itemIndex, 'text') === 'binary') {
    const property = context.getNodeParameter('binaryPropertyName', itemIndex) as string;
    context.helpers.assertBinaryData(itemIndex, property);
    return { path, content: (await context.helpers.getBinaryDataBuffer(itemIndex, property)).toString('utf8') };
  }
  return { path, content: text(context.getNodeParameter('content', itemIndex, ''), 'Content') ?? '' };
}

/** Every input item's document, and which item each path came from (to pair the output with). */
export async function documentsOf(
  context: IExecuteFunctions,
  items: INodeExecutionData[],
  operation: string,
): Promise<{ files: RepoFile[]; itemOfPath: Map<string, number> }> {
  const files: RepoFile[] = [];
  const itemOfPath = new Map<string, number>();
  for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
    const file = await fileOf(context, itemIndex, operation);
    files.push(file);
    itemOfPath.set(normaliseRepoPath(file.path), itemIndex);
  }
  return { files, itemOfPath };
}
