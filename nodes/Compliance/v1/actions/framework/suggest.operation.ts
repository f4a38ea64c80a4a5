import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { spendOnce, spendProperties } from '../../helpers/spend.js';
import { asData, compact, jsonItems, text } from '../../helpers/utils.js';

const properties: INodeProperties[] = [
  {
    displayName: 'Query',
    name: 'query',
    type: 'string',
    default: '',
    required: true,
    placeholder: 'e.g. health data privacy for a US clinic',
    description: 'What the organisation does or needs, in plain language',
  },
  {
    displayName: 'Additional Fields',
    name: 'additionalFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    options: [
      { displayName: 'Description', name: 'description', type: 'string', default: '', description: 'More context about the organisation or system' },
      { displayName: 'Domain', name: 'domain', type: 'string', default: '', placeholder: 'e.g. healthcare' },
      { displayName: 'Jurisdiction', name: 'jurisdiction', type: 'string', default: '', placeholder: 'e.g. US' },
      { displayName: 'Regulator', name: 'regulator', type: 'string', default: '', placeholder: 'e.g. HHS' },
    ],
  },
  {
    displayName: 'Split Into Items',
    name: 'splitIntoItems',
    type: 'boolean',
    default: false,
    description: 'Whether to output one item per candidate framework (ranked) instead of one item with the whole answer',
  },
  ...spendProperties('the suggestion'),
];

export const description = updateDisplayOptions({ show: { resource: ['framework'], operation: ['suggest'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
  const input = compact({
    query: text(this.getNodeParameter('query', itemIndex), 'Query'),
    jurisdiction: text(fields.jurisdiction, 'Jurisdiction'),
    domain: text(fields.domain, 'Domain'),
    regulator: text(fields.regulator, 'Regulator'),
    description: text(fields.description, 'Description'),
  });
  const split = this.getNodeParameter('splitIntoItems', itemIndex, false) as boolean;
  return await spendOnce.call(this, itemIndex, client, 'suggestFrameworks', 'Suggest Framework', input, async () => {
    const result = await client.suggestFrameworks(input);
    if (split) return jsonItems(result.candidates.map((candidate) => ({ ...asData(candidate), mode: result.mode })), itemIndex);
    return jsonItems(asData(result), itemIndex);
  });
}
