import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { PACKS, PACK_CODES, type PackCode } from '../../../../../api/schemas/common.js';
import { asData, jsonItems } from '../../helpers/utils.js';

/** The credit packs of the price list, as dropdown options. */
export const packOptions = PACK_CODES.map((code) => {
  const pack = PACKS[code];
  const tokens = pack.tokens >= 1_000_000 ? `${(pack.tokens / 1_000_000).toLocaleString('en-US')}M` : pack.tokens.toLocaleString('en-US');
  return {
    name: `US$${pack.priceUsd} (${tokens} Tokens${pack.bonusPercent ? `, +${pack.bonusPercent}% Bonus` : ''})`,
    value: code,
  };
});

const properties: INodeProperties[] = [
  {
    displayName: 'Pack',
    name: 'pack',
    type: 'options',
    options: packOptions,
    default: 'pack10',
    required: true,
    description: 'The credit pack to buy. The answer is a payment page URL to open in a browser; nothing is paid until it is completed.',
  },
];

export const description = updateDisplayOptions({ show: { resource: ['billing'], operation: ['createCheckout'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const pack = this.getNodeParameter('pack', itemIndex) as PackCode;
  return jsonItems(asData(await client.createCheckout({ pack })), itemIndex);
}
