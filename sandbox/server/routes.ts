/**
 * Routing derived from the operation table: each row's method and path template under
 * /api/public/v1. A path matching a template with the wrong method is a 405 (with Allow); the most
 * literal template wins, so GET /documents/generate is a 405, not a malformed job id.
 */
import { operations, type OperationId, type OperationSpec } from '../../api/operations.js';
import { HttpError } from './httpError.js';

interface RouteMatch {
  operation: OperationSpec & { id: OperationId };
  pathParams: Record<string, string>;
}

interface CompiledTemplate {
  template: string;
  pattern: RegExp;
  paramNames: string[];
  literalSegments: number;
  byMethod: Map<string, OperationSpec & { id: OperationId }>;
}

function compile(): CompiledTemplate[] {
  const byTemplate = new Map<string, CompiledTemplate>();
  for (const operation of Object.values(operations) as Array<OperationSpec & { id: OperationId }>) {
    let compiled = byTemplate.get(operation.path);
    if (!compiled) {
      const paramNames: string[] = [];
      const source = operation.path
        .split('/')
        .map((segment) => {
          const param = /^\{(\w+)\}$/.exec(segment);
          if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          paramNames.push(param[1]!);
          return '([^/]+)';
        })
        .join('/');
      compiled = {
        template: operation.path,
        pattern: new RegExp(`^${source}$`),
        paramNames,
        literalSegments: operation.path.split('/').filter((s) => s && !s.startsWith('{')).length,
        byMethod: new Map(),
      };
      byTemplate.set(operation.path, compiled);
    }
    compiled.byMethod.set(operation.method, operation);
  }
  return [...byTemplate.values()].sort((a, b) => b.literalSegments - a.literalSegments);
}

const templates = compile();

/** Matches a path relative to the API prefix (no trailing slash except the root). */
export function matchRoute(method: string, path: string): RouteMatch {
  for (const template of templates) {
    const match = template.pattern.exec(path);
    if (!match) continue;
    const operation = template.byMethod.get(method);
    if (!operation) {
      const allowed = [...template.byMethod.keys()].join(', ');
      throw new HttpError(405, 'method_not_allowed', `${method} is not allowed on ${template.template}.`, `Use ${allowed}.`, {
        headers: { allow: allowed },
      });
    }
    const pathParams: Record<string, string> = {};
    template.paramNames.forEach((name, index) => {
      try {
        pathParams[name] = decodeURIComponent(match[index + 1]!);
      } catch {
        throw new HttpError(400, 'invalid_request', `The path parameter ${name} is not valid percent-encoding.`, 'Encode path parameters with encodeURIComponent.');
      }
    });
    return { operation, pathParams };
  }
  throw new HttpError(404, 'not_found', `No endpoint at ${path}.`, 'GET / lists the endpoints of this API.');
}
