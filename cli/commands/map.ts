/** `compliance map`: map documents against frameworks and gate on coverage (no library sync). */
import { configSchema, MAPPING_MODES, type Config, type MappingMode } from '../../review/config.js';
import { readRepoFiles } from '../../review/node/files.js';
import { CONNECTION_OPTIONS, REPO_OPTIONS, enumFlag, numberFlag, parseCommand, stringFlag, type OptionSpecs } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { UsageError } from '../lib/errors.js';
import type { Output } from '../lib/output.js';
import { loadRepo, repoRoot, type Repo } from '../lib/repo.js';
import { maybeWriteReports } from '../lib/reports.js';
import { executeReview } from '../lib/review.js';
import { GATE_OPTIONS, MAPPING_STORE_OPTIONS, SPEND_OPTIONS } from '../lib/reviewOptions.js';
import { reviewExitCode, reviewJson } from '../lib/reviewOutcome.js';
import { renderReview } from './review.js';
import { answerKeylessForkPullRequest, answerUnchangedChange, gatedBase } from '../lib/gatedRun.js';

const OPTIONS = {
  framework: { type: 'string', valueName: 'SLUG', description: 'map against this framework only (a verified slug or name; see `compliance frameworks list`)' },
  threshold: { type: 'string', valueName: 'PCT', description: 'coverage threshold 0-100 (overrides compliance.yml; default 0 for a framework it does not list)' },
  mode: { type: 'string', valueName: 'MODE', description: 'combined (one upload, one charge) or per-document' },
  ...GATE_OPTIONS,
  ...MAPPING_STORE_OPTIONS,
  ...REPO_OPTIONS,
  ...SPEND_OPTIONS,
  ...CONNECTION_OPTIONS,
} as const satisfies OptionSpecs;

export const mapCommand: Command = {
  options: OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance map [FILE...] [options]',
      gate: true,
      description:
        'Maps the documents of compliance.yml (or the FILEs given) against each configured framework (or --framework) and\n' +
        'evaluates the gate: exit 1 below the threshold or, with --fail-on new-gaps, on gaps absent from --baseline.\n' +
        'Waivers from compliance.yml count as covered until they expire. The library is not touched.',
      notes: [
        'Money: each mapping is charged as GET /billing lists it (combined: one per framework). --dry-run prices it.',
        "In a pull or merge request's CI run the check is the map action's: the gate is the base commit's compliance.yml (read",
        'from git: the clone must hold the base commit), the library is only priced, a change touching no document in scope',
        'nor compliance.yml (git lists it, renames and deletions included) maps nothing (unchanged), a re-run reuses its',
        "mappings from --mapping-store once the service confirms them (0 tokens), and a keyless fork is not evaluated.",
      ],
      examples: [
        'compliance map                                          # every framework in compliance.yml',
        'compliance map --framework hipaa-security --threshold 85',
        'compliance map policies/*.md --framework nist-csf-2 --mode per-document',
        'compliance map --report-dir out --formats md,json,pdf --fail-on new-gaps --baseline out/report.json',
      ],
    }, { max: Number.POSITIVE_INFINITY });
    if (!parsed) return 0;
    const v = parsed.values;
    const framework = stringFlag(v, 'framework');
    const threshold = numberFlag(v, 'threshold', { min: 0, max: 100 });
    const mode: MappingMode | undefined = enumFlag(v, 'mode', MAPPING_MODES);

    let repo: Repo;
    let files;
    if (parsed.positionals.length > 0) {
      if (!framework) throw new UsageError('mapping FILEs needs --framework', 'For example: compliance map policy.md --framework nist-csf-2');
      const root = repoRoot(parsed);
      const config = configSchema.parse({
        documents: [{ paths: parsed.positionals }],
        frameworks: [{ framework, threshold: threshold ?? 0, mode: mode ?? 'combined' }],
      }) as Config;
      repo = { root, configPath: '(command line)', config };
      files = await readRepoFiles(root, parsed.positionals);
    } else {
      repo = await loadRepo(parsed);
    }
    // A gated run reads its base commit first: nothing in scope changed is an answer without a key.
    const base = await gatedBase(repo);
    const unchanged = answerUnchangedChange(out, repo, base);
    if (unchanged !== undefined) return unchanged;
    const notEvaluated = answerKeylessForkPullRequest(parsed, out);
    if (notEvaluated !== undefined) return notEvaluated;
    // review/'s map check applies --framework, --threshold and --mode as far as the event allows (a pull request cannot loosen the default branch's gate).
    const gate = files ? {} : { framework, threshold, mode };
    const run = await executeReview(parsed, out, repo, { config: repo.config, gate, base }, files);
    try {
      const reportFiles = await maybeWriteReports(parsed, out, run);
      const exitCode = reviewExitCode(run.result);
      out.result(() => renderReview(out, run, reportFiles), () => reviewJson(run.result, exitCode, reportFiles, run.baselineReport));
      return exitCode;
    } finally {
      await run.session.close();
    }
  },
};
