/** The verified frameworks as picker options (the action node's list and the trigger's multi-select). */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { createClient } from './client.js';
import { toNodeError } from './errors.js';

export async function verifiedFrameworkOptions(context: ILoadOptionsFunctions, filter?: string): Promise<INodePropertyOptions[]> {
  let verifiedFrameworks;
  try {
    ({ verifiedFrameworks } = await (await createClient(context)).getCapabilities());
  } catch (error) {
    throw toNodeError(context.getNode(), error);
  }
  const needle = filter?.trim().toLowerCase();
  return verifiedFrameworks
    .filter((framework) => framework.verified !== false)
    .filter((framework) => !needle || framework.name.toLowerCase().includes(needle) || framework.slug.toLowerCase().includes(needle))
    .map((framework) => ({ name: framework.name, value: framework.slug }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
