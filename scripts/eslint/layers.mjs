// The import rules of DESIGN.md ("Imports run one way") as an ESLint rule. Each relative import is
// resolved against the importing file, so every depth of `../` is judged by where it lands, not by
// how it is spelled: api imports nothing of ours; review imports only api; cli, actions and nodes
// import review and api and never each other (the CLI may start the sandbox); sandbox imports only
// api's schemas and operation table; nodes never import the sandbox; actions never import the CLI.
import { dirname, relative, resolve, sep } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');

/** Top-level area → areas it may import (besides itself). */
export const ALLOWED = {
  api: [],
  review: ['api'],
  cli: ['api', 'review', 'sandbox'],
  actions: ['api', 'review'],
  nodes: ['api', 'review', 'credentials'],
  credentials: ['api'],
  sandbox: ['api'],
};

/** Within api, what the sandbox may reach: the schemas and the operation table. */
const SANDBOX_API = [
  /^api\/schemas\//,
  /^api\/operations\.[jt]s$/,
  /^api\/operationErrors\.[jt]s$/,
  // The definition of the library's contentHash field: the service and the client must compute the same.
  /^api\/contentHash\.[jt]s$/,
  // XML/HTML escaping: one rule for the sandbox's DOCX and review/'s HTML and JUnit reports.
  /^api\/xmlText\.[jt]s$/,
];

function areaOf(path) {
  const rel = relative(ROOT, path).split(sep).join('/');
  return { rel, area: rel.startsWith('..') ? undefined : rel.split('/')[0] };
}

export const layersPlugin = {
  rules: {
    'import-direction': {
      meta: { type: 'problem', schema: [], messages: { forbidden: '{{from}}/ may not import {{to}} ({{what}}): see "Imports run one way" in DESIGN.md.' } },
      create(context) {
        const from = areaOf(context.filename).area;
        if (!from || !(from in ALLOWED)) return {};
        const check = (node, source) => {
          if (typeof source !== 'string' || !source.startsWith('.')) return;
          const { rel, area: to } = areaOf(resolve(dirname(context.filename), source));
          if (!to || to === from || !(to in ALLOWED || to === 'templates')) return;
          const allowed = ALLOWED[from].includes(to) && (from !== 'sandbox' || SANDBOX_API.some((pattern) => pattern.test(rel)));
          if (!allowed) context.report({ node, messageId: 'forbidden', data: { from, to: `${to}/`, what: rel } });
        };
        return {
          ImportDeclaration: (node) => check(node.source, node.source.value),
          ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
          ExportAllDeclaration: (node) => check(node.source, node.source.value),
          ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
        };
      },
    },
  },
};
