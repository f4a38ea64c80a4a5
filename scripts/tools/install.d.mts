/** Where the real suites' tools of the committed lock live, whether installed or not (installs nothing). */
export function toolsLocation(): string;
/** The folder holding the real suites' tools (installed on demand from scripts/tools/package-lock.json). */
export function toolsDir(): string;
/** An installed tool's file, e.g. `toolPath('@redocly/cli/bin/cli.js')`. */
export function toolPath(relative: string): string;
/** A package as the tool lock pins it. */
export function lockedPackage(name: string): { name: string; version: string; integrity: string; license: string };
