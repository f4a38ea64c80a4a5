// The import rules of DESIGN.md ("Imports run one way") as an ESLint rule. Each relative import is
// resolved against the importing file, so every depth of `../` is judged by where it lands, not by
// how it is spelled: api imports nothing of ours; review imports only api; cli, actions and nodes
// import review and api and never each other (the CLI may start the sandbox); sandbox imports only
// api's schemas and operation table; nodes never import the sandbox; actions never import the CLI.
// The sandbox is a package of its own: from outside sandbox/ only its entry, sandbox/index.ts, is
// imported, except by the sandbox's own tests and benchmarks (sandbox/testProject.mjs).
import { dirname, relative, resolve, sep } from 'node:path';
import { SANDBOX_INTERNAL_READERS } from '../../sandbox/testProject.mjs';

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

/** The sandbox package's public face (its `exports`): the code's entry, and the test project the tooling reads. */
const SANDBOX_ENTRY = /^sandbox\/(index\.[jt]s|testProject\.mjs)$/;

function areaOf(path) {
  const rel = relative(ROOT, path).split(sep).join('/');
  return { rel, area: rel.startsWith('..') ? undefined : rel.split('/')[0] };
}

/** Calls `check(node, source)` for every import, re-export and dynamic import of a file. */
function eachImport(check) {
  return {
    ImportDeclaration: (node) => check(node.source, node.source.value),
    ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
    ExportAllDeclaration: (node) => check(node.source, node.source.value),
    ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
  };
}

export const layersPlugin = {
  rules: {
    'sandbox-entry': {
      meta: { type: 'problem', schema: [], messages: { internal: 'Import the sandbox through sandbox/index.ts, its public face, not {{what}} (only the sandbox\'s own tests, listed in sandbox/testProject.mjs, read its internals).' } },
      create(context) {
        const from = areaOf(context.filename).rel;
        const inside = (path) => path === 'sandbox' || path.startsWith('sandbox/');
        if (inside(from) || SANDBOX_INTERNAL_READERS.some((reader) => from === reader || from.startsWith(`${reader}/`))) return {};
        return eachImport((node, source) => {
          if (typeof source !== 'string' || !source.startsWith('.')) return;
          const { rel } = areaOf(resolve(dirname(context.filename), source));
          if (inside(rel) && !SANDBOX_ENTRY.test(rel)) context.report({ node, messageId: 'internal', data: { what: rel } });
        });
      },
    },
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
        return eachImport(check);
      },
    },
  },
};
