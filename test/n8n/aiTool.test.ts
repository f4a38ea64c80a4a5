/**
 * The action node as n8n's AI-agent tool, judged by the pinned real n8n's own modules (its tool
 * generation and default filling, loaded from the installed n8n, not run): what the editor serves
 * and what a run fills. e2e, not unit: it installs that n8n on first use.
 */
import type { INodeTypeDescription } from 'n8n-workflow';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Compliance } from '../../nodes/Compliance/Compliance.node.js';
import { TOOL_DESCRIPTION } from '../../nodes/Compliance/v1/helpers/tool.js';
import { installN8n } from './real/harness.js';

describe('as an AI-agent tool', () => {
  it("Compliance Tool has a model-facing description, and n8n fills the fields a model fills with $fromAI where it fills defaults: in the editor and when a workflow runs", { timeout: 120_000 }, () => {
    // The pinned real n8n's own tool generation and default filling.
    const n8nBin = installN8n();
    const n8nRequire = createRequire(join(dirname(n8nBin), '..', 'n8n', 'package.json'));
    type Description = INodeTypeDescription & { name: string };
    const { createAiTools, convertNodeToAiTool } = n8nRequire('./dist/tool-generation/ai-tools.js') as {
      createAiTools(types: { nodes: Description[] }, known: { nodes: Record<string, unknown>; credentials: Record<string, unknown> }): void;
      convertNodeToAiTool(item: { description: Description }): { description: Description };
    };
    const { NodeHelpers } = n8nRequire('n8n-workflow') as typeof import('n8n-workflow');
    const name = 'n8n-nodes-compliance.compliance';
    const plain = (version: number) => JSON.parse(JSON.stringify({ ...new Compliance().nodeVersions[version]!.description, name })) as Description;
    // What n8n serves the editor (load-nodes-and-credentials: createAiTools, usableAsTool replacements spread) …
    const types = { nodes: [plain(2)] };
    createAiTools(types, { nodes: { [name]: {} }, credentials: {} });
    const editorTool = types.nodes[1]!;
    expect(editorTool.name).toBe(`${name}Tool`);
    expect(editorTool.properties.find((property) => property.name === 'toolDescription')!.default).toBe(TOOL_DESCRIPTION);
    // … and what a run fills a tool node's parameters from (node-types getByNameAndVersion:
    // convertNodeToAiTool over the plain description, no replacements; then the Workflow
    // constructor's getNodeParameters with defaults), for a node saved with only resource and operation.
    const tools: Array<[string, Description, number]> = [['editor v2', editorTool, 2], ['run v1', convertNodeToAiTool({ description: plain(1) }).description, 1], ['run v2', convertNodeToAiTool({ description: plain(2) }).description, 2]];
    const filled = (description: Description, typeVersion: number, picked: Record<string, string>) => NodeHelpers.getNodeParameters(description.properties, picked, true, false, { typeVersion }, description)!;
    const pairs = plain(2).properties.filter((property) => property.name === 'operation').flatMap((property) => property.options!.map((option) => ({ resource: String(property.displayOptions!.show!.resource![0]), operation: String((option as { value: string }).value) })));
    const modelFilled = ['query', 'content', 'title', 'jobId', 'documentId', 'framework', 'slug'];
    for (const [label, tool, typeVersion] of tools) {
      const seen = new Set<string>();
      for (const picked of pairs) {
        const parameters = filled(tool, typeVersion, picked);
        const plainParameters = filled(plain(typeVersion), typeVersion, picked);
        for (const field of modelFilled.filter((field) => field in parameters)) {
          seen.add(field);
          expect(JSON.stringify(parameters[field]), `${label} ${picked.resource}/${picked.operation} ${field}`).toMatch(new RegExp(`n8n-auto-generated-fromAI-override\\*/ \\$fromAI\\('${field}', \`[^\`]+\`, 'string'\\)`));
          // The plain node keeps its empty field.
          expect(JSON.stringify(plainParameters[field]), `plain ${picked.resource}/${picked.operation} ${field}`).not.toContain('$fromAI');
        }
      }
      expect([...seen].sort(), label).toEqual([...modelFilled].sort());
      // An agent reads a document for its text; the plain node leaves it off.
      expect(filled(tool, typeVersion, { resource: 'library', operation: 'get' }).includeContent, label).toBe(true);
      // Choices an agent should not make stay as the user set them.
      expect(filled(tool, typeVersion, {}).resource, label).toBe('framework');
      // The description a model reads when set manually and left as offered: the same in the editor and in a run.
      expect(tool.properties.filter((property) => property.name === 'toolDescription'), label).toHaveLength(1);
      expect(filled(tool, typeVersion, {}).descriptionType, label).toBe('auto');
      expect(filled(tool, typeVersion, { descriptionType: 'manual' }).toolDescription, label).toBe(TOOL_DESCRIPTION);
    }
    expect(filled(plain(2), 2, { resource: 'library', operation: 'get' }).includeContent).toBe(false);
    expect(filled(plain(2), 2, { descriptionType: 'manual' })).not.toHaveProperty('toolDescription');
  });
});

