import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REVIEW = resolve(dirname(fileURLToPath(import.meta.url)), '../../review');

/** Every .ts file under `root`, as absolute paths. */
function sourceFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(root, name));
}

/**
 * Each file's relative imports (`import`, `import type`, `export ... from`, `import()`), resolved to
 * files inside `root`. TypeScript's own pre-processor reads the specifiers, so a string that merely
 * looks like an import in a comment or a template does not count.
 */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map(({ fileName }) => fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')))
      .filter((target) => target.startsWith(root + '/'));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * One circle per strongly connected component of more than one file (or a file importing itself):
 * its shortest loop through the component's first file, and every file the circle ties together.
 */
function importCycles(graph: Map<string, string[]>): { loop: string[]; files: string[] }[] {
  // Tarjan's algorithm: the files of each component, in the order the walk met them.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.unshift(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) components.push(component);
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return components.map((files) => ({ loop: pathThrough(graph, files), files }));
}

/** A closed import path that visits the component's first file: a → b → … → a. */
function pathThrough(graph: Map<string, string[]>, component: string[]): string[] {
  const members = new Set(component);
  const start = component[0]!;
  // Breadth-first from start's imports back to start, staying inside the component: the shortest loop.
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of graph.get(file) ?? []) {
      if (!members.has(next) || cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      if (next === start) {
        const loop = [start];
        for (let at = cameFrom.get(start)!; at !== start; at = cameFrom.get(at)!) loop.unshift(at);
        return [start, ...loop];
      }
      queue.push(next);
    }
  }
  return component;
}

describe('review/ imports', () => {
  it('form no circle', () => {
    const graph = importGraph(REVIEW);
    // The walk reads real specifiers (type-only and re-exports included), or it would prove nothing.
    expect(graph.get(join(REVIEW, 'config.ts'))).toContain(join(REVIEW, 'errors.ts'));
    expect(graph.get(join(REVIEW, 'index.ts'))).toContain(join(REVIEW, 'review.ts'));
    const name = (file: string): string => relative(REVIEW, file);
    const cycles = importCycles(graph).map(
      ({ loop, files }) => `${loop.map(name).join(' → ')} (ties together ${files.map(name).join(', ')})`,
    );
    expect(cycles, `review/ import circles:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('would name a circle', () => {
    const graph = new Map([
      ['/r/a.ts', ['/r/b.ts']],
      ['/r/b.ts', ['/r/c.ts', '/r/d.ts']],
      ['/r/c.ts', ['/r/a.ts']],
      ['/r/d.ts', []],
    ]);
    expect(importCycles(graph)).toEqual([
      { loop: ['/r/a.ts', '/r/b.ts', '/r/c.ts', '/r/a.ts'], files: ['/r/a.ts', '/r/b.ts', '/r/c.ts'] },
    ]);
    expect(importCycles(new Map([['/r/a.ts', ['/r/a.ts']]]))).toEqual([
      { loop: ['/r/a.ts', '/r/a.ts'], files: ['/r/a.ts'] },
    ]);
    expect(importCycles(new Map([['/r/a.ts', ['/r/b.ts']], ['/r/b.ts', []]]))).toEqual([]);
  });
});
