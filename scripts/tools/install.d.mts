/** The folder holding the real suites' tools (installed on demand from scripts/tools/package-lock.json). */
export function toolsDir(): string;
/** An installed tool's file, e.g. `toolPath('@redocly/cli/bin/cli.js')`. */
export function toolPath(relative: string): string;
