/**
 * A small fake of n8n's execute/poll contexts for unit tests of parameter handling and error
 * mapping. Its `httpRequestWithAuthentication` is real: it applies the credential's header the
 * way the ComplianceApi credential declares and sends the request to a running sandbox.
 */
import type { IBinaryData, IDataObject, IExecuteFunctions, INode, INodeExecutionData, IPollFunctions, NodeExecutionHint } from 'n8n-workflow';

export interface FakeCredentials {
  apiKey: string;
  baseUrl: string;
  authHeader?: 'bearer' | 'xApiKey';
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export const NODE: INode = {
  id: 'node-1',
  name: 'Compliance',
  type: 'n8n-nodes-compliance.compliance',
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
};

function lookup(parameters: IDataObject, name: string): unknown {
  return name.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as IDataObject)[key] : undefined), parameters);
}

export function fakeHelpers(credentials: FakeCredentials, requests: RecordedRequest[], extraHeaders: (index: number) => Record<string, string> = () => ({})) {
  return {
    async httpRequestWithAuthentication(this: unknown, credentialType: string, options: IDataObject) {
      if (credentialType !== 'complianceApi') throw new Error(`unexpected credential type ${credentialType}`);
      const headers = { ...(options.headers as Record<string, string>), ...extraHeaders(requests.length) };
      // What the credential's generic `authenticate` adds.
      if (credentials.authHeader === 'xApiKey') headers['X-API-Key'] = credentials.apiKey;
      else headers.Authorization = `Bearer ${credentials.apiKey}`;
      const body = options.body as string | Buffer | undefined;
      requests.push({ method: String(options.method), url: String(options.url), headers, ...(body !== undefined ? { body } : {}) });
      const response = await fetch(String(options.url), {
        method: String(options.method),
        headers,
        ...(body !== undefined ? { body: typeof body === 'string' ? body : new Uint8Array(body) } : {}),
      });
      return {
        statusCode: response.status,
        headers: Object.fromEntries(response.headers.entries()),
        body: Buffer.from(await response.arrayBuffer()),
      };
    },
    async prepareBinaryData(buffer: Buffer, fileName?: string, mimeType?: string): Promise<IBinaryData> {
      return {
        data: buffer.toString('base64'),
        mimeType: mimeType ?? 'application/octet-stream',
        ...(fileName ? { fileName, fileExtension: fileName.split('.').pop() } : {}),
        fileSize: String(buffer.length),
      };
    },
    returnJsonArray(data: IDataObject | IDataObject[]): INodeExecutionData[] {
      return (Array.isArray(data) ? data : [data]).map((json) => ({ json }));
    },
  };
}

export interface FakeExecuteOptions {
  credentials: FakeCredentials;
  /** Node parameters (the same for every item), or one set per item. */
  parameters: IDataObject | IDataObject[];
  items?: INodeExecutionData[];
  continueOnFail?: boolean;
  /** Headers added to the request of that index (0: the first), e.g. the sandbox's X-Sandbox-Fault. */
  requestHeaders?: (index: number) => Record<string, string>;
}

export function fakeExecute(options: FakeExecuteOptions): { context: IExecuteFunctions; requests: RecordedRequest[]; hints: NodeExecutionHint[] } {
  const requests: RecordedRequest[] = [];
  const hints: NodeExecutionHint[] = [];
  const items: INodeExecutionData[] = options.items ?? [{ json: {} }];
  const parametersFor = (index: number): IDataObject =>
    Array.isArray(options.parameters) ? (options.parameters[index] ?? options.parameters[0]!) : options.parameters;
  const helpers = {
    ...fakeHelpers(options.credentials, requests, options.requestHeaders),
    assertBinaryData(itemIndex: number, property: string): IBinaryData {
      const binary = items[itemIndex]?.binary?.[property];
      if (!binary) throw new Error(`No binary data property "${property}" on item ${itemIndex}`);
      return binary;
    },
    async getBinaryDataBuffer(itemIndex: number, property: string): Promise<Buffer> {
      return Buffer.from(helpers.assertBinaryData(itemIndex, property).data, 'base64');
    },
  };
  const context = {
    getInputData: () => items,
    getNode: () => NODE,
    getNodeParameter(name: string, itemIndex: number, fallback?: unknown) {
      const value = lookup(parametersFor(itemIndex), name);
      if (value === undefined) {
        if (fallback === undefined) throw new Error(`Could not get parameter "${name}"`);
        return fallback;
      }
      return value;
    },
    getCredentials: async () => ({ ...options.credentials }),
    continueOnFail: () => options.continueOnFail ?? false,
    getExecutionCancelSignal: () => undefined,
    addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added),
    helpers,
  };
  return { context: context as unknown as IExecuteFunctions, requests, hints };
}

export function fakePoll(options: { credentials: FakeCredentials; parameters: IDataObject; mode?: 'manual' | 'trigger'; staticData?: IDataObject }) {
  const requests: RecordedRequest[] = [];
  const staticData = options.staticData ?? {};
  const context = {
    getNode: () => ({ ...NODE, name: 'Compliance Trigger', type: 'n8n-nodes-compliance.complianceTrigger' }),
    getNodeParameter(name: string, fallback?: unknown) {
      const value = lookup(options.parameters, name);
      return value === undefined ? fallback : value;
    },
    getMode: () => options.mode ?? 'trigger',
    getWorkflowStaticData: () => staticData,
    getCredentials: async () => ({ ...options.credentials }),
    helpers: fakeHelpers(options.credentials, requests),
  };
  return { context: context as unknown as IPollFunctions, requests, staticData };
}
