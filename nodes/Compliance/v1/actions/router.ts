/**
 * Runs the chosen operation once per input item. Every output item is paired with its input item;
 * with "Continue On Fail" a failing item yields its error (code, message, hint, request id) and
 * the others carry on. Under "On Error: Continue (using error output)" the item also carries the node
 * error, which n8n needs to route it to the error output; it is left off otherwise, because n8n then
 * reduces the item to its message and the code, hint and request id would be lost.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../api/client.js';
import { createClient } from '../../../shared/client.js';
import { errorOutput, toNodeError } from '../../../shared/errors.js';
import { operationLabel, userMessage } from '../helpers/userWords.js';
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
    return [items.map((_, itemIndex) => errorItem(this, unsupported, itemIndex))];
  }
  const label = operationLabel(entry, resource, operation, resources[resource as keyof typeof resources].name);
  const shownFields = entry.module.description;
  if (entry.module.executeOnce) {
    try {
      return [await entry.module.executeOnce.call(this, items, await createClient(this))];
    } catch (error) {
      const message = userMessage(error, label, shownFields);
      if (this.continueOnFail()) return [[errorItem(this, error, 0, message)]];
      throw toNodeError(this.getNode(), error, undefined, message);
    }
  }
  const returnData: INodeExecutionData[] = [];
  let client: ComplianceClient | undefined;
  for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
    try {
      client ??= await createClient(this);
      const results = await entry.module.execute!.call(this, itemIndex, client);
      returnData.push(...results.map((result) => ({ ...result, pairedItem: result.pairedItem ?? { item: itemIndex } })));
    } catch (error) {
      const message = userMessage(error, label, shownFields);
      if (this.continueOnFail()) {
        returnData.push(errorItem(this, error, itemIndex, message));
        continue;
      }
      throw toNodeError(this.getNode(), error, itemIndex, message);
    }
  }
  return [returnData];
}

/** The output item of a failed input item under Continue On Fail; `message` in the UI's words when there is one. */
function errorItem(context: IExecuteFunctions, error: unknown, itemIndex: number, message?: string): INodeExecutionData {
  const item: INodeExecutionData = { json: errorOutput(error, message), pairedItem: { item: itemIndex } };
  if (context.getNode().onError === 'continueErrorOutput') item.error = toNodeError(context.getNode(), error, itemIndex, message);
  return item;
}
