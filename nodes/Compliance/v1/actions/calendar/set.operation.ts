import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import type { Cadence } from '../../../../../api/schemas/common.js';
import { asData, jsonItems, text } from '../../helpers/utils.js';

const properties: INodeProperties[] = [
  {
    displayName: 'Cadence',
    name: 'cadence',
    type: 'options',
    options: [
      { name: 'Monthly', value: 'monthly' },
      { name: 'None', value: 'none', description: 'No review reminders' },
      { name: 'Quarterly', value: 'quarterly' },
    ],
    default: 'quarterly',
    description: 'How often review reminders are emailed. Reminders are advice only: nothing runs or is charged automatically.',
  },
  {
    displayName: 'First Review At',
    name: 'firstReviewAt',
    type: 'dateTime',
    default: '',
    description: 'When the first review is due. Leave empty for one cadence from now.',
    displayOptions: { hide: { cadence: ['none'] } },
  },
];

export const description = updateDisplayOptions({ show: { resource: ['calendar'], operation: ['set'] } }, properties);

/**
 * n8n's dateTime values may lack a zone: read them as UTC so the service gets ISO 8601 with one.
 * A value that is not a real date (JavaScript rolls 2026-02-30 over to 2 March) goes to the
 * client as entered, which refuses it naming firstReviewAt.
 */
export function isoTimestamp(value: string): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (day && Number(day[3]) > new Date(Date.UTC(Number(day[1]), Number(day[2]), 0)).getUTCDate()) return value;
  const date = new Date(/([zZ]|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const cadence = this.getNodeParameter('cadence', itemIndex) as Cadence;
  const first = cadence === 'none' ? undefined : text(this.getNodeParameter('firstReviewAt', itemIndex, ''), 'First Review At');
  const result = await client.setCalendar({ cadence, ...(first ? { firstReviewAt: isoTimestamp(first) } : {}) });
  return jsonItems(asData(result), itemIndex);
}
