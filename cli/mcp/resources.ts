/**
 * Resources: library documents (library://{id}, with their stored text), framework control sets
 * (framework://{slug}), the mapping reports of this server session (report://{jobId}), job results
 * (document://{jobId}.{format}) and the API's OpenAPI document (openapi://compliance-engine, too
 * large for a tool result). All free reads.
 */
import { ErrorCode, McpError, type ReadResourceResult, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { listAllLibraryDocuments } from '../../api/library.js';
import { redact } from '../lib/secrets.js';
import type { McpContext } from './context.js';

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  { uriTemplate: 'library://{id}', name: 'library-document', title: 'Library document', description: 'A document of the private library: its metadata and stored text.', mimeType: 'text/plain' },
  { uriTemplate: 'framework://{slug}', name: 'framework', title: 'Framework control set', description: 'A verified framework: regulator, source, controls and dated updates (JSON).', mimeType: 'application/json' },
  { uriTemplate: 'report://{jobId}', name: 'mapping-report', title: 'Mapping report', description: 'The report of a completed mapping job: coverage, per-control evidence, gaps (JSON).', mimeType: 'application/json' },
  { uriTemplate: 'document://{jobId}.{format}', name: 'job-result', title: 'Job result', description: 'The result of a completed generation or mapping job in a format: json, md, pdf or docx.' },
];

const OPENAPI_URI = 'openapi://compliance-engine';
const OPENAPI_RESOURCE: Resource = { uri: OPENAPI_URI, name: 'openapi', title: 'OpenAPI description of the API', description: 'The OpenAPI 3 document of every operation (getOpenApi), about 140 KB.', mimeType: 'application/json' };

export async function listResources(context: McpContext): Promise<Resource[]> {
  const [library, capabilities] = await Promise.all([listAllLibraryDocuments(context.client), context.client.getCapabilities()]);
  return [
    OPENAPI_RESOURCE,
    ...library.map((doc) => ({ uri: `library://${doc.id}`, name: doc.filename ?? doc.id, title: doc.title, mimeType: 'text/plain', ...(doc.summary ? { description: doc.summary } : {}) })),
    ...capabilities.verifiedFrameworks.map((framework) => ({ uri: `framework://${framework.slug}`, name: framework.slug, title: `${framework.name} controls`, mimeType: 'application/json' })),
    ...[...context.reports].map(([jobId, report]) => ({ uri: `report://${jobId}`, name: `report-${jobId}`, title: report.title, mimeType: 'application/json' })),
  ];
}

export async function readResource(uri: string, context: McpContext): Promise<ReadResourceResult> {
  const match = /^(library|framework|report|document|openapi):\/\/(.+)$/.exec(uri);
  if (!match) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${JSON.stringify(uri)}: use library://{id}, framework://{slug}, report://{jobId}, document://{jobId}.{format} or ${OPENAPI_URI}`);
  const [, scheme, id] = match as unknown as [string, string, string];
  const key = decodeURIComponent(id);
  try {
    if (scheme === 'library') {
      const doc = await context.client.getLibraryDocument({ id: key, include: 'content' });
      const { content, ...meta } = doc;
      return { contents: [{ uri, mimeType: 'text/plain', text: content ?? '', _meta: { document: meta } }] };
    }
    if (uri === OPENAPI_URI) {
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(await context.client.getOpenApi()) }] };
    }
    if (scheme === 'document') {
      const parts = /^(.+)\.(json|md|pdf|docx)$/.exec(key);
      if (!parts) throw new McpError(ErrorCode.InvalidParams, `${uri}: use document://{jobId}.{format} with a format of json, md, pdf or docx`);
      const download = await context.client.downloadDocument({ jobId: parts[1]!, format: parts[2] as 'json' | 'md' | 'pdf' | 'docx' });
      if (download.kind === 'json') return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(download.data, null, 2) }] };
      if (download.kind === 'text') return { contents: [{ uri, mimeType: download.contentType, text: download.text }] };
      return { contents: [{ uri, mimeType: download.contentType, blob: Buffer.from(download.data).toString('base64') }] };
    }
    if (scheme === 'openapi') throw new McpError(-32002, `${uri} is not a resource: the OpenAPI document is ${OPENAPI_URI}`, { uri });
    if (scheme === 'framework') {
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(await context.client.getFramework({ slug: key }), null, 2) }] };
    }
    const download = await context.client.downloadDocument({ jobId: key, format: 'json' });
    const report = download.kind === 'json' ? download.data : undefined;
    if (!report) throw new McpError(-32002, `report://${key} is not a JSON report`, { uri });
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(report, null, 2) }] };
  } catch (error) {
    if (error instanceof McpError) throw error;
    // A resource that cannot be read is the spec's "resource not found" (-32002), with the service's reason.
    const described = error as { code?: string; message?: string; requestId?: string };
    throw new McpError(-32002, redact(`${described.code ?? 'error'}: ${described.message ?? String(error)}${described.requestId ? ` (request id: ${described.requestId})` : ''}`), { uri });
  }
}
