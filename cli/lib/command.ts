import type { Output } from './output.js';

/** One `compliance <name>` command: parses its own arguments and resolves to the exit code. */
export interface Command {
  /** One line for `compliance --help`. */
  summary: string;
  run(argv: string[], out: Output): Promise<number>;
}
