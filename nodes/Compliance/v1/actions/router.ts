/**
 * Runs the chosen operation once per input item. Every output item is paired with its input item;
 * with "Continue On Fail" a failing item yields its error (code, message, hint, request id) and
 * the others carry on. The item also carries the node error itself, which is what n8n looks for to
 * send it down the error output under "On Error: Continue (using error output)".
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
  const known = Object.hasOwn(resources, resource) ? resources[resource as keyof typeof resources].operations : undefined;
  // Own properties only: "constructor" or "__proto__" are not operations.
  const entry = known && Object.hasOwn(known, operation) ? known[operation] : undefined;
  if (!entry) {
    const unsupported = new NodeOperationError(this.getNode(), `The operation "${operation}" of resource "${resource}" is not supported`, {
      description: known
        ? `Choose an Operation of ${resource}: ${Object.keys(known).join(', ')}.`
        : `Choose a Resource: ${Object.keys(resources).join(', ')}.`,
    });
    if (!this.continueOnFail()) throw unsupported;
    return [items.map((_, itemIndex) => ({ json: errorOutput(unsupported), error: unsupported, pairedItem: { item: itemIndex } }))];
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
        returnData.push({ json: errorOutput(error), error: toNodeError(this.getNode(), error, itemIndex), pairedItem: { item: itemIndex } });
        continue;
      }
      throw toNodeError(this.getNode(), error, itemIndex);
    }
  }
  return [returnData];
}
