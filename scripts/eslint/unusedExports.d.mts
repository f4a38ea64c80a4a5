// Types of scripts/eslint/unusedExports.mjs, for its test.
import type { ESLint } from 'eslint';

/** Per checked file (absolute path): its exports that no file of `root` imports, with where they are declared. */
export function unusedExports(root?: string): Map<string, Array<{ name: string; start: { line: number; character: number } }>>;
export const unusedExportsPlugin: ESLint.Plugin;
