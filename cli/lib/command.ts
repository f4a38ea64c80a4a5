import type { Output } from './output.js';

/** One `compliance <name>` command (its summary is in commands/index.ts): parses its own arguments and resolves to the exit code. */
export interface Command {
  /** Its options beside the global ones (`compliance completion` lists them). */
  options: Readonly<Record<string, { type: 'string' | 'boolean'; short?: string; description?: string }>>;
  run(argv: string[], out: Output): Promise<number>;
}
