import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layersPlugin } from './scripts/eslint/layers.mjs';
import { unusedExportsPlugin } from './scripts/eslint/unusedExports.mjs';

export default tseslint.config(
  { ignores: ['dist/**', 'actions/*/dist/**', 'node_modules/**', 'coverage/**', 'bench/out/**', '.stryker-tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // DESIGN.md's import directions, judged by where each relative import lands (every depth).
    files: ['api/**/*.ts', 'review/**/*.ts', 'cli/**/*.ts', 'actions/**/*.ts', 'nodes/**/*.ts', 'credentials/**/*.ts', 'sandbox/**/*.ts'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/import-direction': 'error' },
  },
  {
    // The sandbox package is imported through its entry, sandbox/index.ts (its own tests excepted).
    files: ['**/*.ts', '**/*.mts', '**/*.mjs'],
    ignores: ['sandbox/**'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/sandbox-entry': 'error' },
  },
  {
    // No unused export: each export of the product's code has an importer (tests count).
    files: ['api/**/*.ts', 'review/**/*.ts', 'cli/**/*.ts', 'actions/**/*.ts', 'nodes/**/*.ts', 'credentials/**/*.ts', 'sandbox/**/*.ts'],
    plugins: { exports: unusedExportsPlugin },
    rules: { 'exports/no-unused-export': 'error' },
  },
  {
    // The API core and the review loop run inside n8n too: no process, timers or file system there.
    files: ['api/**/*.ts', 'review/**/*.ts'],
    ignores: ['api/node/**', 'review/node/**'],
    rules: {
      'no-restricted-globals': ['error', 'process', 'setTimeout', 'setInterval', 'setImmediate', 'fetch'],
      // Our own areas are judged by layers/import-direction; here only what n8n cannot load.
      // zod classic (`zod/v4`, `zod`) costs the n8n node 24.5 kB more than zod mini, and one classic import keeps all of it.
      'no-restricted-imports': ['error', {
        patterns: ['node:*', 'fs', 'path', 'undici'],
        paths: ['zod', 'zod/v4'].map((name) => ({ name, message: "Import zod mini: `import * as z from 'zod/v4/mini'`." })),
      }],
      // `import { z }` pulls zod's whole namespace (JSON Schema code, 40 locales, a console call) into the n8n bundles.
      'no-restricted-syntax': ['error', { selector: "ImportDeclaration[importKind='value'][source.value='zod/v4/mini'] > ImportSpecifier[importKind='value'][imported.name='z']", message: "Import zod as `import * as z from 'zod/v4/mini'`: the named `z` bundles all of zod into the n8n nodes." }],
    },
  },
  {
    // The runner executes workflow commands printed to stdout: the actions print only through
    // actions/shared/runtime/log.ts, which escapes every line (review/'s logText).
    files: ['actions/**/*.ts'],
    ignores: ['actions/shared/runtime/log.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='core'][property.name=/^(info|debug|notice|warning|error|setFailed|startGroup)$/]",
          message: 'Print through log (actions/shared/runtime/log.ts): it escapes the line so repository text cannot issue workflow commands.',
        },
        { selector: "MemberExpression[object.name='console']", message: 'Print through log (actions/shared/runtime/log.ts).' },
        { selector: "MemberExpression[object.name='process'][property.name=/^(stdout|stderr)$/]", message: 'Print through log (actions/shared/runtime/log.ts).' },
      ],
    },
  },
  {
    // The CLI may run inside a workflow and prints repository and service text: it prints only
    // through cli/lib/output.ts, which escapes every line (review/'s logText) and redacts secrets.
    files: ['cli/**/*.ts'],
    ignores: ['cli/lib/output.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='console']", message: 'Print through Output or printText (cli/lib/output.ts): it escapes the line so repository text cannot drive the terminal or issue workflow commands.' },
        { selector: "MemberExpression[object.name='process'][property.name=/^(stdout|stderr)$/]", message: 'Print through Output or printText (cli/lib/output.ts).' },
      ],
    },
  },
  {
    // SHA-256: n8n's scanner allows node:crypto in community nodes (and it has no timers or I/O).
    files: ['api/contentHash.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['node:*', '!node:crypto', 'fs', 'path', 'undici'] }] },
  },
);
