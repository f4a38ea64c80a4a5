/**
 * The actions' bundles leave out the modules of api/ and review/ they never use, on the word of
 * scripts/build-actions.mjs that loading those modules does nothing (PURE_SOURCE_DIRS) except in the
 * files it names (LOADING_HAS_EFFECTS). Here that word is checked against the sources, and its
 * effect against a build.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { LOADING_HAS_EFFECTS, PURE_SOURCE_DIRS, actionBundleOptions } from '../../scripts/build-actions.mjs';
import { REPO_ROOT } from './harness.js';

/**
 * Top-level statements that act when the module loads: expressions (calls, assignments), control
 * flow, imports for effect alone, top-level await. Declarations' initialisers (a zod schema, a
 * RegExp, a Map) are taken to only build values.
 */
function effectsOnLoad(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  return source.statements
    .filter((statement) =>
      ts.isImportDeclaration(statement)
        ? statement.importClause === undefined
        : !ts.isImportEqualsDeclaration(statement) && !ts.isExportDeclaration(statement) && !ts.isExportAssignment(statement) && !ts.isVariableStatement(statement) &&
          !ts.isFunctionDeclaration(statement) && !ts.isClassDeclaration(statement) && !ts.isInterfaceDeclaration(statement) &&
          !ts.isTypeAliasDeclaration(statement) && !ts.isEnumDeclaration(statement) && !ts.isModuleDeclaration(statement) && !ts.isEmptyStatement(statement),
    )
    .map((statement) => statement.getText(source).split('\n')[0]!);
}

const sources = PURE_SOURCE_DIRS.flatMap((dir) =>
  readdirSync(join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(dir, file)),
);

describe('pure sources of the action bundles', () => {
  it('only the files LOADING_HAS_EFFECTS names do anything when loaded', () => {
    const acting = Object.fromEntries(sources.flatMap((file) => {
      const effects = effectsOnLoad(join(REPO_ROOT, file));
      return effects.length ? [[file, effects]] : [];
    }));
    expect(Object.keys(acting).sort()).toEqual([...LOADING_HAS_EFFECTS].sort());
  });

  it('the call action leaves out what only the review loop uses (compliance.yml, yaml)', async () => {
    const result = await build({ ...actionBundleOptions('call'), write: false });
    // The output's inputs: what is in the bundle (the metafile's own list has every file read).
    const inputs = Object.values(result.metafile!.outputs).flatMap((output) => Object.keys(output.inputs));
    expect(inputs).toContain('review/budget.ts');
    expect(inputs).not.toContain('review/config.ts');
    expect(inputs.filter((input) => input.startsWith('node_modules/yaml/'))).toEqual([]);
  });
});
