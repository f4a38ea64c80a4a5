/** `compliance jobs get|wait <jobId>`: a job's status, or wait for it with a progress display (free). */
import type { JobStatusModel } from '../../api/clientTypes.js';
import { CONNECTION_OPTIONS, integerFlag, parseCommand, type OptionSpecs, subcommandOf } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT, UsageError } from '../lib/errors.js';
import { fields, type Output } from '../lib/output.js';
import { withSession } from '../lib/session.js';

const OPTIONS = {
  timeout: { type: 'string', valueName: 'SECONDS', description: 'wait: give up after this long (default 900); the job goes on' },
  ...CONNECTION_OPTIONS,
} as const satisfies OptionSpecs;

function describeJob(job: JobStatusModel): string {
  return fields([['Job', job.jobId], ['Kind', job.kind], ['Status', job.status], ['Progress', job.progress !== undefined ? `${Math.round(job.progress * 100)}%` : undefined], ['Document', job.documentId], ['Error', job.error ? `${job.error.code}: ${job.error.message}` : undefined]]);
}

export const jobsCommand: Command = {
  options: OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance jobs get|wait <jobId> [options]',
      description: 'get: the job status (GET /jobs/{jobId}). wait: poll until completed (exit 0) or failed (exit 3), with progress.',
      examples: ['compliance jobs get 3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a', 'compliance jobs wait $JOB --timeout 600 && compliance download $JOB --format pdf -o out.pdf'],
    }, { min: 1, max: 2, names: 'subcommand and job id' });
    if (!parsed) return 0;
    const [action, jobId] = parsed.positionals as [string, string | undefined];
    subcommandOf('jobs', action);
    if (jobId === undefined) throw new UsageError(`jobs ${action} needs a job id`, `Usage: compliance jobs ${action} <jobId>`);
    const timeout = integerFlag(parsed.values, 'timeout', { min: 1 });
    return withSession(parsed, out, async ({ client }) => {
      const job = action === 'get'
        ? await client.getJob({ jobId })
        : await client.waitForJob(jobId, {
          ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
          onProgress: (status) => out.progress(`job ${jobId}: ${status.status}${status.progress !== undefined ? ` ${Math.round(status.progress * 100)}%` : ''}`),
        });
      out.result(() => describeJob(job), () => job);
      return action === 'get' && job.status === 'failed' ? EXIT.service : EXIT.ok;
    });
  },
};
