/** `compliance gaps`: plan one GitHub issue per gap; with --github, apply the plan. */
import { readFile } from 'node:fs/promises';
import type { GateResult } from '../../review/gate.js';
import { planGapIssues, type ExistingIssue } from '../../review/gapIssues.js';
import { REPORT_SCHEMA } from '../../review/reportDocument.js';
import { CONNECTION_OPTIONS, REPO_OPTIONS, booleanFlag, parseCommand, repositoryFlag, stringFlag, type OptionSpecs } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT, UsageError } from '../lib/errors.js';
import { applyGapPlan, listIssuesByLabel, type AppliedPlan, type GitHubTarget } from '../lib/github.js';
import type { Output } from '../lib/output.js';
import { renderGapPlan } from '../lib/render.js';
import { loadRepo } from '../lib/repo.js';
import { SPEND_OPTIONS, executeReview } from '../lib/review.js';
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
      frameworks = await readReportFrameworks(reportPath);
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
    const existing: ExistingIssue[] = target && label ? await listIssuesByLabel(target, label) : [];
    const plan = planGapIssues(frameworks, existing, settings);
    let applied: AppliedPlan | undefined;
    if (target && !booleanFlag(v, 'dry-run')) {
      applied = await applyGapPlan(target, plan, (line) => out.progress(line));
      out.done();
    }
    out.result(
      () => {
        const lines = [renderGapPlan(plan)];
        if (applied) lines.push(`Applied on ${target?.repository}: ${applied.created.length} created, ${applied.updated.length} updated, ${applied.closed.length} closed.`);
        else if (target) lines.push('Dry run: nothing changed on GitHub.');
        else lines.push('Planned against no existing issues; add --github to read and apply them.');
        return lines.join('\n');
      },
      () => ({ repository: target?.repository ?? null, existingIssues: existing.length, plan, applied: applied ?? null }),
    );
    return EXIT.ok;
  },
};

async function readReportFrameworks(path: string): Promise<GateResult[]> {
  let data: { schema?: unknown; frameworks?: unknown };
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--report ${path}: ${(error as Error).message}`, 'Pass the report.json (or --json output) of compliance review or map.');
  }
  if (data?.schema !== REPORT_SCHEMA || !Array.isArray(data.frameworks)) {
    throw new UsageError(`--report ${path} is not a review report (schema ${REPORT_SCHEMA})`, 'Pass the report.json (or --json output) of compliance review or map.');
  }
  return data.frameworks as GateResult[];
}
