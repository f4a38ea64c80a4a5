// Types of scripts/build-actions.mjs, for the tests and benchmarks written in TypeScript.
import type { BuildOptions } from 'esbuild';

export const ACTIONS_DIR: string;
export const PURE_SOURCE_DIRS: string[];
export const LOADING_HAS_EFFECTS: string[];
export function actionNames(root?: string): string[];
export function actionBundleOptions(name: string, options?: { outfile?: string }): BuildOptions;
export function build(options: { esbuild: (options: BuildOptions) => Promise<unknown>; selected: (part: string) => boolean }): Promise<void>;
