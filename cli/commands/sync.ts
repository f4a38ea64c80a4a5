/** `compliance sync`: bring the library in line with the repo, paying only for what changed. */
import { CONNECTION_OPTIONS, REPO_OPTIONS, booleanFlag, parseCommand, type OptionSpecs } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT } from '../lib/errors.js';
import type { Output } from '../lib/output.js';
import { loadRepo } from '../lib/repo.js';
import { budgetLines, renderSync } from '../lib/render.js';
import { executeReview } from '../lib/review.js';
import { SPEND_OPTIONS, SYNC_OPTIONS } from '../lib/reviewOptions.js';

const OPTIONS = {
  ...REPO_OPTIONS,
  ...SYNC_OPTIONS,
  ...SPEND_OPTIONS,
  all: { type: 'boolean', description: 'list unchanged files too' },
  ...CONNECTION_OPTIONS,
} as const satisfies OptionSpecs;

export const syncCommand: Command = {
  options: OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance sync [options]',
      description:
        'Matches library documents to repo files by path (stored as filename) and content hash. New files are ingested,\n' +
        'changed files refreshed (400,000 tokens each in live mode), unchanged and renamed files cost nothing. Removed files\n' +
        'are deleted only with --delete-removed, and only documents tagged with this repository.',
      examples: [
        'compliance sync --dry-run                 # what would be sent and what it costs',
        'compliance sync --max-tokens 1200000      # refuse a plan over 3 files',
        'compliance sync --delete-removed --json',
      ],
    });
    if (!parsed) return 0;
    const repo = await loadRepo(parsed);
    // Only the sync part of the loop: no framework is mapped, nothing generated.
    const config = { ...repo.config, frameworks: [], generate: [] };
    const run = await executeReview(parsed, out, repo, { config });
    try {
      const { result } = run;
      const plan = result.sync?.plan;
      const syncRun = result.sync?.run;
      const exitCode = result.status === 'refused' ? EXIT.service : syncRun && !syncRun.dryRun && !syncRun.complete ? EXIT.service : EXIT.ok;
      out.result(
        () => [plan ? renderSync(out, plan, syncRun, { all: booleanFlag(parsed.values, 'all') }) : '', ...budgetLines(out, result, run.mappedFrameworks)].filter(Boolean).join('\n\n'),
        () => ({
          status: result.status,
          exitCode,
          mode: result.mode,
          dryRun: result.status === 'dry-run',
          tokensSpent: result.tokensSpent,
          plannedTokens: plan?.totalTokens ?? 0,
          budget: result.budget,
          counts: plan?.counts ?? null,
          results: syncRun?.results ?? [],
          complete: syncRun?.complete ?? false,
          stoppedBecause: syncRun?.stoppedBecause ?? null,
        }),
      );
      return exitCode;
    } finally {
      await run.session.close();
    }
  },
};
