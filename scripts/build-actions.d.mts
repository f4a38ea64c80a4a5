// Types of scripts/build-actions.mjs, for the tests and benchmarks written in TypeScript.
import type { BuildOptions, Metafile } from 'esbuild';

export const ACTIONS_DIR: string;
export const PURE_SOURCE_DIRS: string[];
export const LOADING_HAS_EFFECTS: string[];
export function actionNames(root?: string): string[];
export function actionBundleOptions(name: string, options?: { outfile?: string }): BuildOptions;
export function buildActionDist(esbuild: (options: BuildOptions) => Promise<{ metafile?: Metafile }>, name: string, options?: { dir?: string }): Promise<Metafile[]>;
export function build(options: { esbuild: (options: BuildOptions) => Promise<unknown>; selected: (part: string) => boolean }): Promise<void>;
export const GITHUB_CLIENT_FILE: string;
export function gitHubClientBundleOptions(name: string, options?: { outfile?: string }): BuildOptions;
export function loadsGitHubClient(metafile: Metafile): boolean;
