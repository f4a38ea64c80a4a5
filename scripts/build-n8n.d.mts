// Types of scripts/build-n8n.mjs, for the tests and benchmarks written in TypeScript.
import type { BuildOptions, BuildResult } from 'esbuild';

export const N8N_ENTRIES: ReadonlyArray<{ source: string; outfile: string }>;
/** Bundle path (relative to the repository) → the most bytes it may take. */
export const N8N_SIZE_TARGETS: Readonly<Record<string, number>>;
export function build(options: { esbuild: (options: BuildOptions) => Promise<BuildResult>; common: BuildOptions; selected?: (part: string) => boolean }): Promise<void>;
