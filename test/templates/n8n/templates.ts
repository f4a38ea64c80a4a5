/** The n8n workflow templates as shipped, and the test copies the real-n8n suite imports. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../../n8n/real/harness.js';

export interface TemplateNode {
  id: string;
  name: string;
  type: string;
  typeVersion: number;
  position: [number, number];
  parameters: Record<string, unknown>;
  credentials?: Record<string, { id: string; name: string }>;
  [key: string]: unknown;
}

export interface Template {
  name: string;
  nodes: TemplateNode[];
  connections: Record<string, Record<string, Array<Array<{ node: string; type: string; index: number }>>>>;
  settings: Record<string, unknown>;
  [key: string]: unknown;
}

export const TEMPLATE_DIR = join(REPO, 'templates/n8n');
export const TEMPLATE_FILES = ['review-loop.json', 'discover-and-generate.json', 'balance-and-review-reminders.json', 'library-qa-agent.json'] as const;

export function loadTemplate(file: (typeof TEMPLATE_FILES)[number]): Template {
  return JSON.parse(readFileSync(join(TEMPLATE_DIR, file), 'utf8')) as Template;
}

/** The credential placeholders the templates reference (id and name); users pick their own on import. */
export const CREDENTIAL_REFS = {
  compliance: { id: 'complianceApi001', name: 'Compliance API', type: 'complianceApi' },
  github: { id: 'githubApi0000001', name: 'GitHub API', type: 'githubApi' },
  smtp: { id: 'smtpCredential01', name: 'SMTP account', type: 'smtp' },
  formAuth: { id: 'formBasicAuth001', name: 'Policy form login', type: 'httpBasicAuth' },
  openai: { id: 'openAiPlacehold1', name: 'OpenAI account', type: 'openAiApi' },
} as const;

/** A copy to import, with a fixed workflow id (the template has none: n8n assigns one on import). */
export function forImport(template: Template, id: string): Template & { id: string } {
  return { ...structuredClone(template), id };
}

/**
 * The template with its schedule trigger swapped for a Manual Trigger of the same name, id and
 * position (`n8n execute` cannot start a Schedule Trigger). Everything else stays as shipped.
 */
export function withManualTrigger(template: Template, triggerName: string, id: string): Template & { id: string } {
  const copy = forImport(template, id);
  const index = copy.nodes.findIndex((node) => node.name === triggerName);
  if (index < 0) throw new Error(`no node "${triggerName}"`);
  const { id: nodeId, name, position } = copy.nodes[index]!;
  copy.nodes[index] = { id: nodeId, name, position, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} };
  return copy;
}
