/** `compliance config check`: validate compliance.yml and show what it selects; frameworks and document types against GET /capabilities (free). */
import { selectDocumentPaths } from '../../review/documents.js';
import { frameworkDocuments } from '../../review/documents.js';
import { listRepoFiles } from '../../review/node/files.js';
import { CONNECTION_OPTIONS, REPO_OPTIONS, booleanFlag, parseCommand, type OptionSpecs, subcommandOf } from '../lib/args.js';
import { assertCapabilities } from '../lib/capabilityCheck.js';
import type { Command } from '../lib/command.js';
import { EXIT } from '../lib/errors.js';
import { count } from '../lib/format.js';
import { table, type Output } from '../lib/output.js';
import { loadRepo } from '../lib/repo.js';
import { withSession } from '../lib/session.js';

const OPTIONS = {
  offline: { type: 'boolean', description: 'make no request: skip checking frameworks and document types against the service' },
  ...REPO_OPTIONS,
  ...CONNECTION_OPTIONS,
} as const satisfies OptionSpecs;

export const configCommand: Command = {
  options: OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance config check [options]',
      description:
        'Validates compliance.yml (every problem with its line and key), checks that every glob matches a file and every\n' +
        'framework selects documents, and lists the documents per group. Then asks the service (GET /capabilities, free;\n' +
        'the embedded sandbox when none is configured) whether each framework is a verified one and each generate: type\n' +
        'exists, so a wrong one is caught before anything is spent. --offline makes no request.',
      examples: ['compliance config check', 'compliance config check -C examples --json', 'compliance config check --offline'],
    }, { min: 1, max: 1, names: 'subcommand (check)' });
    if (!parsed) return 0;
    subcommandOf('config', parsed.positionals[0]);
    const repo = await loadRepo(parsed);
    const { config } = repo;
    const selected = selectDocumentPaths(config.documents, await listRepoFiles(repo.root));
    const frameworks = config.frameworks.map((framework) => ({
      framework: framework.framework,
      threshold: framework.threshold,
      mode: framework.mode,
      documents: frameworkDocuments(framework, config.documents, selected).map((entry) => entry.path),
    }));
    if (!booleanFlag(parsed.values, 'offline')) {
      await withSession(parsed, out, async ({ client }) => assertCapabilities(config, await client.getCapabilities(), repo.configPath));
    }
    out.result(
      () => [
        `${repo.configPath} is valid: ${count(selected.length, 'document')}, ${count(config.frameworks.length, 'framework')}, ${count(config.waivers.length, 'waiver')}, ${count(config.generate.length, 'generated document')}.`,
        '',
        table(['Document', 'Group', 'Category', 'Tags'], selected.map((entry) => [entry.path, entry.group.name ?? `#${entry.groupIndex + 1}`, entry.group.category ?? '—', entry.group.tags.join(', ') || '—'])),
        ...(frameworks.length ? ['', table(['Framework', 'Threshold', 'Mode', 'Documents'], frameworks.map((f) => [f.framework, `${f.threshold}%`, f.mode, String(f.documents.length)]))] : []),
        ...(config.repository ? [] : ['', 'Note: no repository set; sync needs it (or --repo, or GITHUB_REPOSITORY).']),
      ].join('\n'),
      () => ({ valid: true, file: repo.configPath, repository: config.repository ?? null, documents: selected.map((entry) => ({ path: entry.path, group: entry.group.name ?? null, category: entry.group.category ?? null, tags: entry.group.tags })), frameworks, waivers: config.waivers, generate: config.generate }),
    );
    return EXIT.ok;
  },
};
