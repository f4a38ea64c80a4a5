/**
 * What `compliance mcp --tools` selects: `read` lists every read-only tool; the others list an
 * area's tools, read-only or not. Its own module so the command reads the flag without loading the tools.
 */
export const TOOL_GROUPS = ['read', 'library', 'generate', 'billing', 'review'] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];

/** Without --tools: every group, except on a live key without --max-tokens, where only reading is offered. */
export function defaultToolGroups(mode: 'sandbox' | 'live', maxTokens: number | undefined): ToolGroup[] {
  return mode === 'live' && maxTokens === undefined ? ['read'] : [...TOOL_GROUPS];
}
