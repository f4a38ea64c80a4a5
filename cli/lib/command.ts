import type { Output } from './output.js';

/** One `compliance <name>` command (its summary is in commands/index.ts): parses its own arguments and resolves to the exit code. */
export interface Command {
  run(argv: string[], out: Output): Promise<number>;
}
