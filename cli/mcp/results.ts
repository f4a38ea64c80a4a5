/** Tool results: JSON answers as text, and errors as MCP tool errors carrying the service's code, hint and request id (secrets masked). */
import type { CallToolResult, TextContent } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../lib/errors.js';
import { redact } from '../lib/secrets.js';

/** Compact JSON: indentation would spend an assistant's context on spaces. */
export function jsonText(value: unknown): TextContent {
  return { type: 'text', text: redact(JSON.stringify(value)) };
}

interface ToolErrorBody {
  code: string;
  message: string;
  hint: string | null;
  requestId: string | null;
}

function describeToolError(error: unknown): ToolErrorBody {
  if (error && typeof error === 'object' && 'code' in error && 'message' in error && !(error instanceof Error)) {
    const plain = error as { code: string; message: string; hint?: string };
    return { code: plain.code, message: redact(plain.message), hint: plain.hint ? redact(plain.hint) : null, requestId: null };
  }
  const described = describeError(error);
  const requestId = (error as { requestId?: unknown } | null)?.requestId;
  return {
    code: described.code,
    message: redact([described.message, ...described.details.filter((line) => !line.startsWith('request id:'))].join('\n')),
    hint: described.hint ? redact(described.hint) : null,
    requestId: typeof requestId === 'string' ? requestId : null,
  };
}

/** An MCP tool error (isError): the assistant sees what went wrong and what to do; `extra` is the running spend. */
export function errorResult(error: unknown, extra?: string): CallToolResult {
  const body = describeToolError(error);
  const lines = [`${body.code}: ${body.message}`];
  if (body.hint) lines.push(`hint: ${body.hint}`);
  if (body.requestId) lines.push(`request id: ${body.requestId}`);
  if (extra) lines.push(extra);
  return { isError: true, content: [{ type: 'text', text: redact(lines.join('\n')) }], structuredContent: { error: body } };
}
