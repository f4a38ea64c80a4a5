/**
 * The n8n templates as files: importable shape, no secrets, every node wired, sticky notes for
 * setup, and every Compliance node's parameters valid for the node as built (so a renamed
 * parameter in nodes/ fails here, not in a user's n8n). The real-n8n suite runs them.
 */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { Compliance } from '../../../nodes/Compliance/Compliance.node.js';
import { ComplianceTrigger } from '../../../nodes/ComplianceTrigger/ComplianceTrigger.node.js';
import { CREDENTIAL_REFS, loadTemplate, TEMPLATE_FILES, type Template, type TemplateNode } from './templates.js';

const actionDescription = (new Compliance().nodeVersions[1] as { description: INodeTypeDescription }).description;
const triggerDescription = (new ComplianceTrigger().nodeVersions[1] as { description: INodeTypeDescription }).description;

/** Whether a property is shown for these parameter values (displayOptions.show/hide, own keys only). */
function shown(property: INodeProperties, values: Record<string, unknown>, all: INodeProperties[]): boolean {
  const valueOf = (key: string) => {
    const name = key.replace(/^\//, '');
    return name in values ? values[name] : all.find((candidate) => candidate.name === name)?.default;
  };
  // An expression can take any value at run time.
  const isExpression = (value: unknown) => typeof value === 'string' && value.startsWith('=');
  for (const [key, allowed] of Object.entries(property.displayOptions?.show ?? {})) {
    if (key.startsWith('@') || isExpression(valueOf(key))) continue;
    if (!(allowed as unknown[]).includes(valueOf(key))) return false;
  }
  for (const [key, hidden] of Object.entries(property.displayOptions?.hide ?? {})) {
    if (key.startsWith('@') || isExpression(valueOf(key))) continue;
    if ((hidden as unknown[]).includes(valueOf(key))) return false;
  }
  return true;
}

/** Parameter problems of one node against a node description: unknown names, impossible option values. */
function parameterProblems(node: TemplateNode, description: INodeTypeDescription, ignore: string[] = []): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(node.parameters)) {
    if (ignore.includes(name)) continue;
    const candidates = description.properties.filter((property) => property.name === name && shown(property, node.parameters, description.properties));
    if (!candidates.length) {
      problems.push(`${node.name}: parameter "${name}" is not a parameter of ${description.name} for ${JSON.stringify({ resource: node.parameters.resource, operation: node.parameters.operation, event: node.parameters.event })}`);
      continue;
    }
    const property = candidates[0]!;
    const isExpression = typeof value === 'string' && value.startsWith('=');
    if (property.type === 'options' && !isExpression && property.options && !property.typeOptions?.loadOptionsMethod) {
      const allowed = (property.options as Array<{ value?: unknown }>).map((option) => option.value);
      if (!allowed.includes(value)) problems.push(`${node.name}: "${name}" is ${JSON.stringify(value)}, not one of ${JSON.stringify(allowed)}`);
    }
    if (property.type === 'collection' && value && typeof value === 'object') {
      const known = (property.options as INodeProperties[]).map((option) => option.name);
      for (const key of Object.keys(value)) if (!known.includes(key)) problems.push(`${node.name}: "${name}.${key}" is not an option of ${name}`);
    }
  }
  for (const property of description.properties) {
    if (property.required && shown(property, node.parameters, description.properties) && !(property.name in node.parameters)) {
      problems.push(`${node.name}: required parameter "${property.name}" is missing`);
    }
  }
  return problems;
}

const templates = TEMPLATE_FILES.map((file) => [file, loadTemplate(file)] as const);
const isSticky = (node: TemplateNode) => node.type === 'n8n-nodes-base.stickyNote';

describe.each(templates)('%s', (file, template: Template) => {
  it('has the shape `n8n import:workflow` and the editor import take', () => {
    expect(typeof template.name).toBe('string');
    expect(template.name).toMatch(/^Compliance: /);
    expect(template.settings).toMatchObject({ executionOrder: 'v1' });
    expect(template.active).toBe(false);
    expect(template).not.toHaveProperty('id');
    const names = template.nodes.map((node) => node.name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(template.nodes.map((node) => node.id)).size).toBe(names.length);
    for (const node of template.nodes) {
      expect(node, node.name).toMatchObject({ type: expect.any(String), typeVersion: expect.any(Number), parameters: expect.any(Object) });
      expect(node.position).toHaveLength(2);
    }
  });

  it('wires every node: each connection names existing nodes, and only sticky notes and triggers have no input', () => {
    const names = new Set(template.nodes.map((node) => node.name));
    const targets = new Set<string>();
    for (const [source, outputs] of Object.entries(template.connections)) {
      expect(names.has(source), source).toBe(true);
      for (const [type, lists] of Object.entries(outputs)) {
        for (const connection of lists.flat()) {
          expect(names.has(connection.node), `${source} → ${connection.node}`).toBe(true);
          expect(connection.type).toBe(type);
          targets.add(connection.node);
        }
      }
    }
    for (const node of template.nodes) {
      if (isSticky(node)) continue;
      const isTrigger = /trigger/i.test(node.type);
      const isSubNode = Object.keys(template.connections[node.name] ?? {}).some((type) => type.startsWith('ai_'));
      if (isTrigger || isSubNode) expect(targets.has(node.name), node.name).toBe(false);
      else expect(targets.has(node.name), `${node.name} has no input`).toBe(true);
    }
  });

  it('carries no credentials or keys: only the placeholder credential references', () => {
    const text = JSON.stringify(template);
    expect(text).not.toMatch(/csk_(sandbox|live)_|ghp_|gh[su]_|sk-[A-Za-z0-9]{10}|Bearer [A-Za-z0-9]/);
    const known = Object.values(CREDENTIAL_REFS).map(({ type, id, name }) => JSON.stringify({ [type]: { id, name } }));
    for (const node of template.nodes) {
      for (const [type, reference] of Object.entries(node.credentials ?? {})) {
        expect(Object.keys(reference).sort(), node.name).toEqual(['id', 'name']);
        expect(known, `${node.name}: ${type}`).toContain(JSON.stringify({ [type]: reference }));
      }
      if (node.type.startsWith('n8n-nodes-compliance.')) expect(node.credentials, node.name).toHaveProperty('complianceApi');
    }
  });

  it('explains the setup in a sticky note', () => {
    const notes = template.nodes.filter(isSticky).map((node) => String(node.parameters.content));
    expect(notes.some((note) => /### Set up/.test(note))).toBe(true);
  });

  it('uses the Compliance nodes with parameters they have', () => {
    const problems = template.nodes.flatMap((node) => {
      if (node.type === 'n8n-nodes-compliance.compliance') return parameterProblems(node, actionDescription);
      if (node.type === 'n8n-nodes-compliance.complianceTool') return parameterProblems(node, actionDescription, ['descriptionType', 'toolDescription']);
      if (node.type === 'n8n-nodes-compliance.complianceTrigger') return parameterProblems(node, triggerDescription, ['pollTimes']);
      return [];
    });
    expect(problems).toEqual([]);
  });
});

describe('review loop', () => {
  const template = loadTemplate('review-loop.json');
  const node = (name: string) => template.nodes.find((candidate) => candidate.name === name)!;
  const targets = (name: string) => (template.connections[name]?.main ?? []).map((list) => list.map((connection) => connection.node));
  const y = (name: string) => node(name).position[1];

  it('starts on a quarterly schedule and keeps the user settings in one node', () => {
    expect(node('Every Quarter')).toMatchObject({ type: 'n8n-nodes-base.scheduleTrigger', parameters: { rule: { interval: [{ field: 'months', monthsInterval: 3 }] } } });
    const settings = (node('Settings').parameters.assignments as { assignments: Array<{ name: string }> }).assignments.map((entry) => entry.name);
    expect(settings).toEqual(['owner', 'repository', 'folder', 'framework', 'coverageThreshold', 'issueLabel', 'maxNewIssues', 'maxSyncTokens', 'maxMapTokens', 'libraryTags', 'notifyTo', 'notifyFrom']);
  });

  it("is a handful of n8n's own nodes and the Review operations: no Code node, no hand-made matching", () => {
    const working = template.nodes.filter((candidate) => !isSticky(candidate));
    expect(working.length).toBeLessThanOrEqual(14);
    expect(working.every((candidate) => candidate.type.startsWith('n8n-nodes-base.') || candidate.type === 'n8n-nodes-compliance.compliance')).toBe(true);
    expect(working.map((candidate) => candidate.type)).not.toContain('n8n-nodes-base.code');
    const review = working.filter((candidate) => candidate.type === 'n8n-nodes-compliance.compliance');
    expect(review.map((candidate) => [candidate.name, candidate.parameters.resource, candidate.parameters.operation, candidate.typeVersion])).toEqual([
      ['Sync Documents', 'review', 'syncDocuments', 2],
      ['Map Policy Set', 'review', 'mapPolicySet', 2],
      ['Plan Gap Issues', 'review', 'planGapIssues', 2],
    ]);
  });

  it('feeds the Markdown and text files of the folder to Sync Documents and Map Policy Set, syncing first', () => {
    expect(targets('Settings')).toEqual([['Get Open Gap Issues', 'List Repository Files']]);
    expect(targets('List Repository Files')).toEqual([['Markdown and Text Files']]);
    expect(targets('Markdown and Text Files')).toEqual([['Get File Content']]);
    expect(node('Get File Content').parameters).toMatchObject({ resource: 'file', operation: 'get', asBinaryProperty: true, binaryPropertyName: 'data' });
    expect(targets('Get File Content')).toEqual([['Sync Documents', 'Map Policy Set']]);
    // executionOrder v1 runs sibling branches top to bottom: the open issues are read and the library
    // synced before the mapping; the summary email comes after the issue branch.
    expect(y('Get Open Gap Issues')).toBeLessThan(y('List Repository Files'));
    expect(y('Sync Documents')).toBeLessThan(y('Map Policy Set'));
    for (const name of ['Sync Documents', 'Map Policy Set']) {
      expect(node(name).parameters, name).toMatchObject({ path: '={{ $json.path }}', inputDataType: 'binary', binaryPropertyName: 'data' });
    }
  });

  it("keeps documents of deleted files by default and caps the sync's price", () => {
    expect(node('Sync Documents').parameters).toMatchObject({ dryRun: false, options: { deleteRemoved: false, maxTokens: "={{ $('Settings').first().json.maxSyncTokens }}" } });
    expect(node('Map Policy Set').parameters).toMatchObject({ maxTokens: "={{ $('Settings').first().json.maxMapTokens }}" });
    const about = String(node('About This Template').parameters.content);
    expect(about).toMatch(/deleted from the folder are \*\*kept\*\*/);
    expect(about).toContain('Delete Documents That Left the Set');
    expect(about).toMatch(/400,000 tokens/);
    expect(about).toMatch(/GET \/billing/);
  });

  it('routes the planned issue actions to GitHub: create, update, close; the email after them', () => {
    expect(targets('Map Policy Set')).toEqual([['Plan Gap Issues', 'Email Review Summary']]);
    expect(y('Plan Gap Issues')).toBeLessThan(y('Email Review Summary'));
    expect(node('Plan Gap Issues').parameters).toMatchObject({
      existingIssues: "={{ $('Get Open Gap Issues').all().map(item => item.json) }}",
      options: { maxNewPerRun: "={{ $('Settings').first().json.maxNewIssues }}", closeResolved: true },
    });
    expect(node('Get Open Gap Issues').parameters).toMatchObject({ operation: 'getIssues', getRepositoryIssuesFilters: { state: 'open' } });
    expect(targets('Plan Gap Issues')).toEqual([['Create, Update or Close?']]);
    const rules = (node('Create, Update or Close?').parameters.rules as { values: Array<{ conditions: { conditions: Array<{ rightValue: string }> } }> }).values;
    expect(rules.map((rule) => rule.conditions.conditions[0]!.rightValue)).toEqual(['create', 'update', 'close']);
    expect(targets('Create, Update or Close?')).toEqual([['Create Gap Issue'], ['Update Gap Issue'], ['Close Resolved Gap Issue']]);
    expect(node('Close Resolved Gap Issue').parameters).toMatchObject({ operation: 'edit', editFields: { state: 'closed', state_reason: 'completed' } });
  });
});

describe('library Q&A agent', () => {
  const template = loadTemplate('library-qa-agent.json');
  const agent = template.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.agent')!;
  const into = (type: string) =>
    Object.entries(template.connections)
      .filter(([, outputs]) => outputs[type]?.flat().some((connection) => connection.node === agent.name && connection.index === 0))
      .map(([source]) => template.nodes.find((node) => node.name === source)!);

  it('connects the Compliance node as tools of the agent, with the intended operations and $fromAI inputs', () => {
    const tools = into('ai_tool');
    expect(tools.map((tool) => [tool.type, tool.parameters.resource, tool.parameters.operation])).toEqual([
      ['n8n-nodes-compliance.complianceTool', 'library', 'search'],
      ['n8n-nodes-compliance.complianceTool', 'library', 'get'],
      ['n8n-nodes-compliance.complianceTool', 'framework', 'suggest'],
    ]);
    for (const tool of tools) {
      expect(String(tool.parameters.toolDescription).length, tool.name).toBeGreaterThan(40);
      expect(tool.parameters.descriptionType).toBe('manual');
    }
    expect(tools[0]!.parameters.query).toMatch(/^=\{\{ \$fromAI\('query'/);
    expect(tools[1]!.parameters.documentId).toMatch(/^=\{\{ \$fromAI\('documentId'/);
    expect(tools[2]!.parameters.query).toMatch(/^=\{\{ \$fromAI\('description'/);
    // Read-only: nothing that ingests, refreshes, deletes, buys or changes settings.
    expect(tools.map((tool) => tool.parameters.operation)).not.toEqual(expect.arrayContaining(['ingest', 'refresh', 'delete', 'createCheckout', 'setAutoTopUp', 'set']));
  });

  it('has a chat trigger, a model placeholder and memory on the agent', () => {
    expect(into('main').map((node) => node.type)).toEqual(['@n8n/n8n-nodes-langchain.chatTrigger']);
    const [model] = into('ai_languageModel');
    expect(model!.type).toMatch(/^@n8n\/n8n-nodes-langchain\.lmChat/);
    expect(model!.credentials).toEqual({ openAiApi: { id: CREDENTIAL_REFS.openai.id, name: CREDENTIAL_REFS.openai.name } });
    expect(into('ai_memory').map((node) => node.type)).toEqual(['@n8n/n8n-nodes-langchain.memoryBufferWindow']);
  });
});
