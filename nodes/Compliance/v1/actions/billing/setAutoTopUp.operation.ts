import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { LIMITS, type PackCode } from '../../../../../api/schemas/common.js';
import { asData, jsonItems } from '../../helpers/utils.js';
import { packOptions } from './createCheckout.operation.js';

const whenEnabled = { show: { enabled: [true] } };

const properties: INodeProperties[] = [
  {
    displayName: 'Enabled',
    name: 'enabled',
    type: 'boolean',
    default: true,
    description: 'Whether auto-top-up is on. When the balance dips below the threshold, a prefilled checkout link is emailed once per dip.',
  },
  {
    displayName: 'Threshold (Tokens)',
    name: 'thresholdTokens',
    type: 'number',
    typeOptions: { minValue: LIMITS.autoTopUpMinThreshold },
    default: 1_000_000,
    description: `Balance under which the checkout link is sent (at least ${LIMITS.autoTopUpMinThreshold.toLocaleString('en-US')} tokens)`,
    displayOptions: whenEnabled,
  },
  {
    displayName: 'Pack',
    name: 'pack',
    type: 'options',
    options: packOptions,
    default: 'pack10',
    description: 'The credit pack the emailed checkout link is for',
    displayOptions: whenEnabled,
  },
];

export const description = updateDisplayOptions({ show: { resource: ['billing'], operation: ['setAutoTopUp'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const enabled = this.getNodeParameter('enabled', itemIndex) as boolean;
  const input = enabled
    ? {
        enabled,
        thresholdTokens: this.getNodeParameter('thresholdTokens', itemIndex) as number,
        pack: this.getNodeParameter('pack', itemIndex) as PackCode,
      }
    : { enabled };
  return jsonItems(asData(await client.setAutoTopUp(input)), itemIndex);
}
