import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../api/client.js';
import type { OperationId } from '../../../../api/operations.js';

/**
 * One operation of the node: its parameters and either `execute` for one input item or
 * `executeOnce` for all input items together (Review → Sync Documents: the items are one set).
 */
type OperationModule = { description: INodeProperties[] } & (
  | { execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]>; executeOnce?: undefined }
  | { executeOnce(this: IExecuteFunctions, items: INodeExecutionData[], client: ComplianceClient): Promise<INodeExecutionData[]>; execute?: undefined }
);

/**
 * An operation as the resource lists it. `operationId` names the row of the operation table the
 * option's description, action and cost note come from; `override` replaces them where the node
 * offers something the table has no row for (Job → Wait).
 */
export interface OperationEntry {
  operationId: OperationId;
  /** Display name in the operation dropdown. */
  name: string;
  module: OperationModule;
  override?: { description: string; action: string };
}

export type ResourceOperations = Record<string, OperationEntry>;
