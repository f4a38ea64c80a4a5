/**
 * The no-unused-export lint (scripts/eslint/unusedExports.mjs) on a small repository of its own:
 * what counts as an importer, how names are followed through re-exports, and what it reports.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unusedExports } from '../../scripts/eslint/unusedExports.mjs';

const FILES: Record<string, string> = {
  // Imported by name, directly and through an index's `export *` and `export { } from`.
  'api/direct.ts': 'export const used = 1;\nexport const unused = 2;\nexport function helper() { return unused; }\n',
  'api/starred.ts': 'export interface Shape { a: number }\nexport type Lonely = string;\n',
  'api/renamed.ts': 'export const original = 1;\nexport const other = 2;\n',
  'api/index.ts': "export * from './starred.js';\nexport { original as renamed, other } from './renamed.js';\n",
  // Every export of an entry point (a bundle's or n8n's) is public.
  'sandbox/index.ts': 'export function startSandbox() {}\n',
  // Reached only by a namespace import, a dynamic import and an import type.
  'review/everything.ts': 'export const a = 1;\nexport const b = 2;\n',
  'review/lazy.ts': 'export const loaded = 1;\n',
  'review/typed.ts': 'export interface Named { x: 1 }\nexport interface Unnamed { y: 2 }\n',
  'review/consumer.ts': [
    "import { used } from '../api/direct.js';",
    "import { type Shape, renamed } from '../api/index.js';",
    "import * as everything from './everything.js';",
    "export type UsesNamed = import('./typed.js').Named;",
    'export const all = [used, renamed, everything, (s: Shape) => s];',
    "export const later = () => import('./lazy.js');",
  ].join('\n'),
  // Tests import too, and are not themselves checked.
  'test/consumer.test.ts': "import { all, later, type UsesNamed } from '../review/consumer.js';\nexport const unusedInTest = [all, later] as unknown as UsesNamed;\n",
};

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'unused-exports-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('no-unused-export', () => {
  it('reports the exports no file imports, where they are declared, and nothing else', () => {
    const found = Object.fromEntries(
      [...unusedExports(root)].map(([path, names]) => [relative(root, path), names.map(({ name, start }) => `${name}@${start.line + 1}`)]),
    );
    expect(found).toEqual({
      // Used in its own file only: the export is what is unused.
      'api/direct.ts': ['unused@2', 'helper@3'],
      'api/starred.ts': ['Lonely@2'],
      // Re-exported, but nobody imports it from the index: both the re-export and the declaration.
      'api/index.ts': ['other@2'],
      'api/renamed.ts': ['other@2'],
      'review/typed.ts': ['Unnamed@2'],
    });
  });
});
