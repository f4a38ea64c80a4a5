import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { formatSnippets, type SnippetFormat } from '../../helpers/snippets.js';
import { spendOnce, spendProperties } from '../../helpers/spend.js';
import { asData, compact, jsonItems, returnAllProperties, tagsOf, text } from '../../helpers/utils.js';

const displayOptions = { show: { resource: ['library'], operation: ['search'] } };

const properties: INodeProperties[] = [
  {
    displayName: 'Query',
    name: 'query',
    type: 'string',
    default: '',
    required: true,
    placeholder: 'e.g. least privilege access review',
    description: 'Words to search for; results are ranked by relevance with highlighted snippets',
  },
];

const filterProperties: INodeProperties[] = [
  {
    displayName: 'Filters',
    name: 'filters',
    type: 'collection',
    placeholder: 'Add Filter',
    default: {},
    options: [
      { displayName: 'Category', name: 'category', type: 'string', default: '' },
      { displayName: 'Tags', name: 'tags', type: 'string', default: '', description: 'Comma-separated tags' },
    ],
  },
  {
    displayName: 'Options',
    name: 'options',
    type: 'collection',
    placeholder: 'Add Option',
    default: {},
    options: [
      {
        displayName: 'Snippet Format',
        name: 'snippetFormat',
        type: 'options',
        options: [
          { name: 'Plain Text With Highlight Offsets', value: 'plain', description: 'Text, and the start and end of each highlighted term in snippetHighlights' },
          { name: 'Markdown Emphasis', value: 'markdown', description: 'Text with the highlighted terms in **bold**' },
          { name: 'HTML', value: 'html', description: 'As the service sends it: escaped HTML with &lt;mark&gt; elements' },
        ],
        default: 'plain',
        description: 'How the highlighted terms of the snippets are marked',
      },
    ],
  },
  ...spendProperties('the query'),
];

export const description: INodeProperties[] = [
  ...updateDisplayOptions(displayOptions, properties),
  ...returnAllProperties(displayOptions),
  ...updateDisplayOptions(displayOptions, filterProperties),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const query = text(this.getNodeParameter('query', itemIndex), 'Query') ?? '';
  const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
  const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
  let limit: number | undefined;
  if (returnAll) {
    // As many as the service allows in one (charged) query: its maximum, from the free capabilities call.
    limit = (await client.getCapabilities()).limits.searchMaxLimit;
  } else {
    limit = this.getNodeParameter('limit', itemIndex, 50) as number;
  }
  const input = { query, ...compact({ category: text(filters.category, 'Category'), tags: tagsOf(filters.tags) }), ...(limit !== undefined ? { limit } : {}) };
  const options = this.getNodeParameter('options', itemIndex, {}) as { snippetFormat?: SnippetFormat };
  const format = options.snippetFormat ?? 'plain';
  // Each hit of the one query carries the query's tokensSpent.
  return await spendOnce.call(this, itemIndex, client, 'searchLibrary', 'Search Library', input, async () => {
    const result = await client.searchLibrary(input);
    const hits = returnAll || limit === undefined ? result.results : result.results.slice(0, limit);
    return jsonItems(
      hits.map((hit, index) => ({ ...asData(hit), ...asData(formatSnippets(hit.snippets, format)), rank: index + 1, query })),
      itemIndex,
    );
  });
}
