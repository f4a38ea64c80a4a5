/**
 * Operations that start a job (the table marks them `createsJob`): the Wait for Completion, Timeout
 * and On Timeout parameters, and submitting then waiting as they say.
 */
import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../api/client.js';
import type { JobStatusModel } from '../../../../api/clientTypes.js';
import { ComplianceJobTimeoutError } from '../../../../api/errors.js';
import { toNodeError } from '../../../shared/errors.js';
import { asData, jsonItems } from './utils.js';


const DEFAULT_WAIT_TIMEOUT_SECONDS = 300;

export function waitProperties(displayOptions: IDisplayOptions, withToggle = true): INodeProperties[] {
  const whenWaiting: IDisplayOptions = withToggle
    ? { show: { ...displayOptions.show, waitForCompletion: [true] } }
    : displayOptions;
  const properties: INodeProperties[] = [
    {
      displayName: 'Timeout (Seconds)',
      name: 'waitTimeout',
      type: 'number',
      typeOptions: { minValue: 1 },
      default: DEFAULT_WAIT_TIMEOUT_SECONDS,
      description:
        'How long to wait in total. The job is polled at once, then with growing intervals; the job itself carries on after a timeout.',
      displayOptions: whenWaiting,
    },
    {
      displayName: 'On Timeout',
      name: 'onTimeout',
      type: 'options',
      options: [
        { name: 'Fail', value: 'fail', description: 'Stop with an error naming the job ID' },
        {
          name: 'Return Last Status',
          value: 'returnStatus',
          description: 'Output the last status with the job ID and timedOut: true, to wait again later with Job → Wait',
        },
      ],
      default: 'fail',
      description: 'What to do when the job has not finished within the timeout',
      displayOptions: whenWaiting,
    },
  ];
  if (!withToggle) return properties;
  return [
    {
      displayName: 'Wait for Completion',
      name: 'waitForCompletion',
      type: 'boolean',
      default: true,
      description:
        'Whether to wait until the job has completed or failed before continuing. When off, the output is the accepted job (with its ID) at once.',
      displayOptions,
    },
    ...properties,
  ];
}

/**
 * Waits for a job as the parameters say: completed → the final status merged over `accepted`;
 * failed → ComplianceJobError; timeout → an error, or the last status with `timedOut: true`.
 */
export async function waitAsConfigured(
  this: IExecuteFunctions,
  itemIndex: number,
  client: ComplianceClient,
  jobId: string,
  accepted: IDataObject = {},
  estimatedSeconds?: number,
): Promise<IDataObject> {
  const timeoutSeconds = this.getNodeParameter('waitTimeout', itemIndex, DEFAULT_WAIT_TIMEOUT_SECONDS) as number;
  const onTimeout = this.getNodeParameter('onTimeout', itemIndex, 'fail') as string;
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    throw new NodeOperationError(this.getNode(), 'Timeout (Seconds) must be a positive number', { itemIndex });
  }
  const signal = this.getExecutionCancelSignal?.();
  try {
    const job: JobStatusModel = await client.waitForJob(jobId, {
      timeoutMs: timeoutSeconds * 1000,
      ...(estimatedSeconds !== undefined ? { estimatedSeconds } : {}),
      ...(signal ? { signal } : {}),
    });
    return { ...accepted, ...asData(job), jobId, timedOut: false };
  } catch (error) {
    if (error instanceof ComplianceJobTimeoutError && onTimeout === 'returnStatus') {
      const last = typeof error.job === 'object' && error.job !== null ? asData(error.job) : {};
      return { ...accepted, ...last, jobId, timedOut: true, message: error.message };
    }
    throw toNodeError(this.getNode(), error, itemIndex);
  }
}

/** Submits through `submit`, then waits when "Wait for Completion" is on. */
export async function submitJob(
  this: IExecuteFunctions,
  itemIndex: number,
  client: ComplianceClient,
  submit: () => Promise<{ jobId: string; estimatedSeconds?: number } & object>,
): Promise<INodeExecutionData[]> {
  const accepted = await submit();
  const wait = this.getNodeParameter('waitForCompletion', itemIndex, true) as boolean;
  if (!wait) return jsonItems(asData(accepted), itemIndex);
  const result = await waitAsConfigured.call(this, itemIndex, client, accepted.jobId, asData(accepted), accepted.estimatedSeconds);
  return jsonItems(result, itemIndex);
}
