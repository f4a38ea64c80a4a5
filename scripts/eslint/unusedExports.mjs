// No unused export: an ESLint rule that reports every export of the product's code (api, review,
// cli, actions, nodes, credentials, sandbox) that no file of the repository imports. Tests, bench
// and scripts count as importers; the bundles' entry points (scripts/build*.mjs) export on purpose.
// Exported but used only in its own file counts as unused: drop the `export`.
//
// Whole-repository and syntactic: every .ts/.mts/.mjs file is parsed once per ESLint run (no type
// checker, a second or two), relative imports are resolved as Node and esbuild resolve them, and a
// name is followed through `export … from` and `export *` to the file that declares it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
/** Folders whose exports must each have an importer. */
const CHECKED = ['api', 'review', 'cli', 'actions', 'nodes', 'credentials', 'sandbox'];
/** Folders whose files may import (besides CHECKED). */
const IMPORTERS = ['test', 'bench', 'scripts', 'templates', 'examples'];
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', 'out', '.git']);
/** What a bundle or n8n loads by file: every export is public. */
const ENTRY_POINTS = [
  /^api\/node\/index\.ts$/,
  /^sandbox\/index\.ts$/,
  /^cli\/main\.ts$/,
  /^actions\/[^/]+\/src\/main\.ts$/,
  /^nodes\/[^/]+\/[^/]+\.node\.ts$/,
  /^credentials\/[^/]+\.credentials\.ts$/,
  /^sandbox\/formats\/upload\/extractWorker\.ts$/,
  /^sandbox\/mapping\/mappingWorker\.ts$/,
];


function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP_DIRS.has(entry.name) ? [] : sourceFiles(path);
    return /\.(ts|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.d.mts') ? [path] : [];
  });
}

/** A relative specifier as a file of ours: `./x.js` → x.ts, `./dir` → dir/index.ts. */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m?js)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.mts`, base, `${base}/index.ts`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const isExported = (node) => ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export;

/** What one file declares as exports and what it takes from others. */
function readModule(path) {
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const module = { path, source, exports: new Map(), reexports: [], stars: [], uses: [] };
  const local = (name, node) => module.exports.set(name, node);
  const use = (specifier, names) => {
    const target = resolveSpecifier(path, specifier);
    if (target) module.uses.push({ target, names });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const names = [];
      if (clause?.name) names.push('default');
      if (clause?.namedBindings && ts.isNamespaceImport(clause.namedBindings)) return use(node.moduleSpecifier.text, '*');
      if (clause?.namedBindings) for (const element of clause.namedBindings.elements) names.push((element.propertyName ?? element.name).text);
      return use(node.moduleSpecifier.text, names);
    }
    if (ts.isExportDeclaration(node)) {
      if (node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        const target = resolveSpecifier(path, node.moduleSpecifier.text);
        if (!target) return;
        if (!node.exportClause) module.stars.push(target);
        else if (ts.isNamespaceExport(node.exportClause)) module.reexports.push({ name: node.exportClause.name.text, target, from: '*', node });
        else for (const element of node.exportClause.elements) module.reexports.push({ name: element.name.text, target, from: (element.propertyName ?? element.name).text, node: element });
      } else if (node.exportClause && ts.isNamedExports(node.exportClause)) {
        for (const element of node.exportClause.elements) local(element.name.text, element);
      }
      return;
    }
    if (ts.isExportAssignment(node)) return local('default', node);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      use(node.arguments[0].text, '*');
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      use(node.argument.literal.text, node.qualifier ? [ts.isIdentifier(node.qualifier) ? node.qualifier.text : node.qualifier.left.getText()] : '*');
    }
    if (node.parent === source && isExported(node)) {
      const isDefault = ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Default;
      if (ts.isVariableStatement(node)) {
        for (const declaration of node.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name)) local(declaration.name.text, declaration);
        }
      } else if (isDefault) local('default', node);
      else if (node.name && ts.isIdentifier(node.name)) local(node.name.text, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return module;
}

/** Per checked file (absolute path): its exports that no file of `root` imports, with where they are declared. */
export function unusedExports(root = ROOT) {
  const rel = (path) => relative(root, path).split(sep).join('/');
  const files = [...CHECKED, ...IMPORTERS].flatMap((dir) => sourceFiles(join(root, dir)));
  for (const entry of readdirSync(root)) if (/\.(ts|mts|mjs)$/.test(entry) && !entry.endsWith('.d.ts')) files.push(join(root, entry));
  const modules = new Map(files.map((path) => [path, readModule(path)]));
  const used = new Map([...modules.keys()].map((path) => [path, new Set()]));

  const demanded = new Set();
  /** Marks `name` of `path` used, following re-exports to the declaring file; '*' marks every export. */
  const demand = (path, name) => {
    const key = `${path}\0${name}`;
    const module = modules.get(path);
    if (!module || demanded.has(key)) return;
    demanded.add(key);
    if (name === '*') {
      for (const exported of module.exports.keys()) used.get(path).add(exported);
      for (const reexport of module.reexports) {
        used.get(path).add(reexport.name);
        demand(reexport.target, reexport.from);
      }
      for (const star of module.stars) demand(star, '*');
      return;
    }
    if (module.exports.has(name)) return void used.get(path).add(name);
    const reexport = module.reexports.find((entry) => entry.name === name);
    if (reexport) {
      used.get(path).add(name);
      return demand(reexport.target, reexport.from);
    }
    for (const star of module.stars) demand(star, name);
  };

  for (const [path, module] of modules) {
    if (ENTRY_POINTS.some((pattern) => pattern.test(rel(path)))) demand(path, '*');
    for (const { target, names } of module.uses) for (const name of names === '*' ? ['*'] : names) demand(target, name);
  }

  const unused = new Map();
  for (const [path, module] of modules) {
    if (!CHECKED.includes(rel(path).split('/')[0])) continue;
    const declared = [...module.exports, ...module.reexports.map((reexport) => [reexport.name, reexport.node])];
    const names = declared.filter(([name]) => !used.get(path).has(name));
    if (names.length) unused.set(path, names.map(([name, node]) => ({ name, start: module.source.getLineAndCharacterOfPosition(node.getStart()) })));
  }
  return unused;
}

let cached;

export const unusedExportsPlugin = {
  rules: {
    'no-unused-export': {
      meta: { type: 'suggestion', schema: [], messages: { unused: '`{{name}}` is exported (or re-exported) here but no file imports it from here: drop the export (or the code, if nothing uses it).' } },
      create(context) {
        cached ??= unusedExports();
        return {
          Program() {
            for (const { name, start } of cached.get(context.filename) ?? []) {
              context.report({ loc: { line: start.line + 1, column: start.character }, messageId: 'unused', data: { name } });
            }
          },
        };
      },
    },
  },
};
