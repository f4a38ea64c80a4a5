/** Dropdowns filled from the service: document types, download formats and verified frameworks. */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { createClient } from '../../../shared/client.js';
import { toNodeError } from '../../../shared/errors.js';
import { verifiedFrameworkOptions } from '../../../shared/frameworks.js';

async function capabilities(context: ILoadOptionsFunctions) {
  try {
    return await (await createClient(context)).getCapabilities();
  } catch (error) {
    throw toNodeError(context.getNode(), error);
  }
}

export async function getDocumentTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
  const { documentTypes } = await capabilities(this);
  return documentTypes
    .map((type) => ({ name: type.title, value: type.id, ...(type.description ? { description: type.description } : {}) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

const FORMAT_NAMES: Record<string, string> = { json: 'JSON', md: 'Markdown', pdf: 'PDF', docx: 'Word (DOCX)' };

export async function getFormats(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
  const { formats } = await capabilities(this);
  return formats.map((format) => ({ name: FORMAT_NAMES[format] ?? format, value: format }));
}

export async function getVerifiedFrameworks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
  return await verifiedFrameworkOptions(this);
}
