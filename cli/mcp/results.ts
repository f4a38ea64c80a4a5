/**
 * Tool results: JSON answers as text, and errors as MCP tool errors carrying the service's code,
 * hint and request id (secrets masked), in the assistant's terms: the service words its hints for
 * HTTP callers (`GET /library`) and the CLI for terminals (`compliance frameworks list`); an
 * assistant calls tools, so both become the tool (and argument) that does the same.
 */
import type { CallToolResult, TextContent } from '@modelcontextprotocol/sdk/types.js';
import { ComplianceValidationError } from '../../api/errors.js';
import { operationIds, operations } from '../../api/operations.js';
import { describeError } from '../lib/errors.js';
import { redact } from '../lib/secrets.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `METHOD /path` of each operation (a concrete id where the path has a parameter) → its tool; the longest paths first. */
const PATH_TERMS: ReadonlyArray<[RegExp, (match: string, value?: string) => string]> = [
  [/\bGET \/openapi\.json\b/g, () => 'the resource openapi://compliance-engine'],
  ...operationIds
    .filter((id) => id !== 'getOpenApi')
    .map((id) => operations[id])
    .sort((a, b) => b.path.length - a.path.length)
    .map((spec): [RegExp, (match: string, value?: string) => string] => {
      const param = spec.pathParams[0];
      const pattern = escapeRegExp(spec.path).replace(/\\\{\w+\\\}/, '(\\{\\w+\\}|[A-Za-z0-9_-]+)');
      return [
        new RegExp(`\\b${spec.method} ${pattern}(?![\\w/{])`, 'g'),
        (_match, value) => (param && value && !value.startsWith('{') ? `${spec.id} (${param} ${value})` : spec.id),
      ];
    }),
];

/** CLI commands a hint may name, as the tool that does the same (or what the user runs themself). */
const CLI_TERMS: ReadonlyArray<[RegExp, string]> = [
  [/`?compliance frameworks list`?/g, 'getCapabilities (verifiedFrameworks)'],
  [/`?compliance frameworks get`?/g, 'getFramework'],
  [/`?compliance checkout (pack\d+)`?/g, 'createCheckout (pack $1)'],
  [/`?compliance suggest`?/g, 'suggestFrameworks'],
  [/`?compliance config check`?/g, 'planReview'],
  [/run `?compliance init`?/g, 'ask the user to run `compliance init` in that directory'],
];

/** `text` with REST paths and CLI commands replaced by the tools an assistant calls. */
export function inToolTerms(text: string): string {
  let result = text;
  for (const [pattern, replace] of PATH_TERMS) result = result.replace(pattern, (match, value?: string) => replace(match, value));
  for (const [pattern, replacement] of CLI_TERMS) result = result.replace(pattern, replacement);
  return result;
}

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

/** The hint of an error the CLI would word for a terminal, as an assistant needs it. */
function toolHint(error: unknown, code: string, hint: string | undefined): string | undefined {
  // The API module's hint is per code, and `slug` shares invalid_id with library ids.
  if (error instanceof ComplianceValidationError && (error as { field?: string }).field === 'slug') return 'Use a framework slug such as hipaa-security: getCapabilities lists the verified ones (verifiedFrameworks).';
  if (code === 'internal_error') return 'A fault in this MCP server, not in your arguments: tell the user, quoting the message.';
  return hint;
}

function describeToolError(error: unknown): ToolErrorBody {
  const clean = (text: string) => redact(inToolTerms(text));
  if (error && typeof error === 'object' && 'code' in error && 'message' in error && !(error instanceof Error)) {
    const plain = error as { code: string; message: string; hint?: string };
    return { code: plain.code, message: clean(plain.message), hint: plain.hint ? clean(plain.hint) : null, requestId: null };
  }
  const described = describeError(error);
  const requestId = (error as { requestId?: unknown } | null)?.requestId;
  const hint = toolHint(error, described.code, described.hint);
  return {
    code: described.code,
    message: clean([described.message, ...described.details.filter((line) => !line.startsWith('request id:'))].join('\n')),
    hint: hint ? clean(hint) : null,
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
