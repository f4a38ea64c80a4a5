/** `compliance gaps`: plan one GitHub issue per gap; with --github, apply the plan. */
import type { GateResult } from '../../review/gate.js';
import { planGapIssues, type ExistingIssue } from '../../review/gapIssues.js';
import { applyGapIssuePlan, type AppliedGapIssues, type GitHubIssuesPort } from '../../review/githubPort.js';
import { readReportFile } from '../../review/node/report.js';
import { CONNECTION_OPTIONS, REPO_OPTIONS, booleanFlag, parseCommand, repositoryFlag, stringFlag, type OptionSpecs } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT, ExternalServiceError, UsageError } from '../lib/errors.js';
import { connectGitHub, gitHubFailure, ISSUES_WRITE_HINT, type GitHubTarget } from '../lib/github.js';
import type { Output } from '../lib/output.js';
import { renderGapPlan } from '../lib/render.js';
import { loadRepo } from '../lib/repo.js';
import { executeReview } from '../lib/review.js';
import { SPEND_OPTIONS } from '../lib/reviewOptions.js';
import { currentEventPolicy } from '../../review/node/ciContext.js';
import { registerSecret } from '../lib/secrets.js';

const OPTIONS = {
  report: { type: 'string', valueName: 'FILE', description: 'plan from a report.json or `review --json` output (free); default: map now (charged)' },
  github: { type: 'boolean', description: 'read the existing issues from GitHub and apply the plan (create, update, close)' },
  'github-token': { type: 'string', valueName: 'TOKEN', description: 'GitHub token (default: GITHUB_TOKEN or GH_TOKEN); needs issues: write' },
  repo: { type: 'string', valueName: 'OWNER/NAME', description: 'GitHub repository (default: compliance.yml repository, then GITHUB_REPOSITORY)' },
  ...SPEND_OPTIONS,
  ...REPO_OPTIONS,
  ...CONNECTION_OPTIONS,
} as const satisfies OptionSpecs;

export const gapsCommand: Command = {
  options: OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance gaps [options]',
      description:
        'Plans the gap issues: one per framework and control, found again by a hidden marker, so re-runs never duplicate.\n' +
        'Without --github the plan is printed against no existing issues. With --github the issues carrying the first\n' +
        'gapIssues label are read, and the plan is applied unless --dry-run: create, update if the body changed, reopen,\n' +
        'close resolved ones (state_reason completed).',
      examples: [
        'compliance review --report-dir out && compliance gaps --report out/report.json',
        'GITHUB_TOKEN=… compliance gaps --report out/report.json --github --repo acme/policies',
        'compliance gaps --github --dry-run --json',
      ],
    });
    if (!parsed) return 0;
    const v = parsed.values;
    const repo = await loadRepo(parsed);
    const settings = repo.config.gapIssues;

    let target: GitHubTarget | undefined;
    if (booleanFlag(v, 'github')) {
      const token = stringFlag(v, 'github-token') ?? process.env.GITHUB_TOKEN?.trim() ?? process.env.GH_TOKEN?.trim();
      registerSecret(token);
      if (stringFlag(v, 'github-token')) out.warn('--github-token puts the token in your shell history; prefer GITHUB_TOKEN.');
      if (!token) throw new UsageError('--github needs a token', 'Set GITHUB_TOKEN (in Actions: secrets.GITHUB_TOKEN with permissions issues: write) or pass --github-token.');
      const repository = repositoryFlag(v, 'repo') ?? repo.config.repository ?? process.env.GITHUB_REPOSITORY?.trim();
      if (!repository) throw new UsageError('--github needs the repository', 'Pass --repo owner/name or set repository in compliance.yml.');
      target = { token, repository, apiUrl: (process.env.GITHUB_API_URL?.trim() || 'https://api.github.com').replace(/\/+$/, '') };
    }

    const reportPath = stringFlag(v, 'report');
    let frameworks: GateResult[];
    if (reportPath) {
      const file = await readReportFile(reportPath, { role: '--report', hint: 'Pass the report.json (or --json output) of compliance review or map.' });
      frameworks = file.report?.frameworks ?? [];
    } else {
      const run = await executeReview(parsed, out, repo, { config: repo.config, sync: 'skip' });
      await run.session.close();
      if (run.result.status !== 'completed') {
        out.print(`Nothing mapped (${run.result.status}): ${run.result.budget.reasons.join('; ') || 'dry run'}`);
        return run.result.status === 'refused' ? EXIT.service : EXIT.ok;
      }
      frameworks = run.result.frameworks;
    }

    const label = settings.labels[0];
    const github: GitHubIssuesPort | undefined = target && label ? await connectGitHub(target, out) : undefined;
    let existing: ExistingIssue[] = [];
    if (github && label) {
      try {
        existing = await github.listIssues(label);
      } catch (error) {
        throw gitHubFailure(error, `list the issues labelled ${label}`);
      }
    }
    const plan = planGapIssues(frameworks, existing, settings);
    let applied: AppliedGapIssues | undefined;
    // Gap issues are repository-wide: a pull request's run (unmerged text) plans but never applies.
    const policy = currentEventPolicy();
    if (github && !policy.mayWriteIssues) out.warn(`not applied: ${policy.withheld}`);
    if (github && label && !booleanFlag(v, 'dry-run') && policy.mayWriteIssues) {
      applied = await applyGapIssuePlan(github, plan, { label, onProgress: (line) => out.progress(line), onFailure: (what, message) => out.warn(`could not ${what}: ${message}`) });
      out.done();
      const { refused } = applied;
      if (refused) throw new ExternalServiceError(`github_${refused.status}`, `GitHub refused to ${refused.what}: ${refused.message}`, ISSUES_WRITE_HINT);
    }
    // The JSON contract of --json: created {number, key, url}, updated {number, key, reopened}, closed {number, key}.
    const done = applied && {
      created: applied.created.map(({ number, key, url }) => ({ number, key, url })),
      updated: [...applied.updated.map(({ number, key }) => ({ number, key, reopened: false })), ...applied.reopened.map(({ number, key }) => ({ number, key, reopened: true }))],
      closed: applied.closed.map(({ number, key }) => ({ number, key })),
      failed: applied.failed,
    };
    out.result(
      () => {
        const lines = [renderGapPlan(plan)];
        if (done) lines.push(`Applied on ${target?.repository}: ${done.created.length} created, ${done.updated.length} updated, ${done.closed.length} closed${done.failed.length ? `, ${done.failed.length} failed` : ''}.`);
        else if (target) lines.push('Dry run: nothing changed on GitHub.');
        else lines.push('Planned against no existing issues; add --github to read and apply them.');
        return lines.join('\n');
      },
      () => ({ repository: target?.repository ?? null, existingIssues: existing.length, plan, applied: done ?? null }),
    );
    return done?.failed.length ? EXIT.service : EXIT.ok;
  },
};
