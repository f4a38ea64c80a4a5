/** `compliance init`: write the commented example compliance.yml (and starter documents its globs need). */
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { CONFIG_FILE_NAME, parseConfig } from '../../review/config.js';
import { matchesGlob } from '../../review/glob.js';
import { exampleConfig } from '../../review/exampleConfig.js';
import { listRepoFiles, writeRepoFile } from '../../review/node/files.js';
import { REPO_OPTIONS, booleanFlag, parseCommand, stringFlag, type OptionSpecs } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT, UsageError } from '../lib/errors.js';
import { today } from '../lib/format.js';
import type { Output } from '../lib/output.js';
import { repoRoot } from '../lib/repo.js';
import { STARTER_DOCUMENTS } from '../lib/starterDocuments.js';

const OPTIONS = {
  ...REPO_OPTIONS,
  force: { type: 'boolean', description: 'overwrite an existing file' },
} as const satisfies OptionSpecs;

export const initCommand: Command = {
  options: OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance init [--force]',
      description:
        'Writes a commented example compliance.yml to the repository root (refuses to overwrite one without --force), and,\n' +
        'for each document group whose globs select no file yet, a starter document: `compliance review` then runs as-is.',
      examples: ['compliance init', 'compliance init -C my-repo --force', 'compliance init && compliance config check'],
    });
    if (!parsed) return 0;
    const root = repoRoot(parsed);
    const file = stringFlag(parsed.values, 'config') ?? CONFIG_FILE_NAME;
    if (existsSync(join(root, file)) && !booleanFlag(parsed.values, 'force')) {
      throw new UsageError(`${file} already exists in ${root}`, 'Pass --force to overwrite it, or check it with `compliance config check`.');
    }
    const text = exampleConfig(today());
    const path = await writeRepoFile(root, file, text);
    // A group selecting nothing is a configuration error: give each such group its starter document.
    const present = await listRepoFiles(root);
    const starters: string[] = [];
    for (const pattern of parseConfig(text, file).documents.flatMap((group) => group.paths)) {
      if (present.some((path) => matchesGlob(pattern, path))) continue;
      const starter = Object.keys(STARTER_DOCUMENTS).find((candidate) => matchesGlob(pattern, candidate) && !existsSync(join(root, candidate)));
      if (starter) starters.push(await writeRepoFile(root, starter, STARTER_DOCUMENTS[starter] as string));
    }
    out.result(
      () => [`Wrote ${path}${starters.length ? ` and the starter documents ${starters.join(', ')} (replace them with your own)` : ''}.`,
        'Edit it, then run `compliance config check` and `compliance review --dry-run`.'].join('\n'),
      () => ({ path, written: true, starterDocuments: starters }),
    );
    return EXIT.ok;
  },
};
