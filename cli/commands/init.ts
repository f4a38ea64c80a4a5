/** `compliance init`: write the commented example compliance.yml. */
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { CONFIG_FILE_NAME } from '../../review/config.js';
import { EXAMPLE_CONFIG } from '../../review/exampleConfig.js';
import { writeRepoFile } from '../../review/node/files.js';
import { REPO_OPTIONS, booleanFlag, parseCommand, stringFlag, type OptionSpecs } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT, UsageError } from '../lib/errors.js';
import type { Output } from '../lib/output.js';
import { repoRoot } from '../lib/repo.js';

const OPTIONS = {
  ...REPO_OPTIONS,
  force: { type: 'boolean', description: 'overwrite an existing file' },
} as const satisfies OptionSpecs;

export const initCommand: Command = {
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance init [--force]',
      description: 'Writes a commented example compliance.yml to the repository root; refuses to overwrite one without --force.',
      examples: ['compliance init', 'compliance init -C my-repo --force', 'compliance init && compliance config check'],
    });
    if (!parsed) return 0;
    const root = repoRoot(parsed);
    const file = stringFlag(parsed.values, 'config') ?? CONFIG_FILE_NAME;
    if (existsSync(join(root, file)) && !booleanFlag(parsed.values, 'force')) {
      throw new UsageError(`${file} already exists in ${root}`, 'Pass --force to overwrite it, or check it with `compliance config check`.');
    }
    const path = await writeRepoFile(root, file, EXAMPLE_CONFIG);
    out.result(
      () => `Wrote ${path}. Edit it, then run \`compliance config check\` and \`compliance review --dry-run\`.`,
      () => ({ path, written: true }),
    );
    return EXIT.ok;
  },
};
