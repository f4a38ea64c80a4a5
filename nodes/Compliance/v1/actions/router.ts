/**
 * Runs the chosen operation once per input item. Every output item is paired with its input item;
 * with "Continue On Fail" a failing item yields its error (code, message, hint, request id) and
 * the others carry on.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../api/client.js';
import { createClient } from '../../../shared/client.js';
import { errorOutput, toNodeError } from '../../../shared/errors.js';
import { resources } from './resources.js';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
  const items = this.getInputData();
  const resource = this.getNodeParameter('resource', 0) as string;
  const operation = this.getNodeParameter('operation', 0) as string;
  const entry = Object.hasOwn(resources, resource) ? resources[resource as keyof typeof resources].operations[operation] : undefined;
  if (!entry) {
    throw new NodeOperationError(this.getNode(), `The operation "${operation}" of resource "${resource}" is not supported`);
  }
  const returnData: INodeExecutionData[] = [];
  let client: ComplianceClient | undefined;
  for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
    try {
      client ??= await createClient(this);
      const results = await entry.module.execute.call(this, itemIndex, client);
      returnData.push(...results.map((result) => ({ ...result, pairedItem: result.pairedItem ?? { item: itemIndex } })));
    } catch (error) {
      if (this.continueOnFail()) {
        returnData.push({ json: errorOutput(error), pairedItem: { item: itemIndex } });
        continue;
      }
      throw toNodeError(this.getNode(), error, itemIndex);
    }
  }
  return [returnData];
}
