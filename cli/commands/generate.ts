/**
 * `compliance generate`, two intents told apart by their flags:
 *   --framework F [--type T] [--format pdf] [-o FILE]: one document now (submit, wait, download), no compliance.yml;
 *   --drifted | --only | --all: the documents compliance.yml lists under generate: (drift report without them).
 */
import { FORMATS, type DownloadFormat } from '../../api/schemas/common.js';
import { detectDrift, planGeneration } from '../../review/drift.js';
import { checkFrameworkUpdates, resolveFrameworkSlug } from '../../review/frameworkUpdates.js';
import { priceOf } from '../../review/budget.js';
import { generationCalls, runGeneration } from '../../review/generation.js';
import { writeManifest, } from '../../review/node/config.js';
import { writeRepoFile } from '../../review/node/files.js';
import { CONNECTION_OPTIONS, REPO_OPTIONS, booleanFlag, enumFlag, integerFlag, listFlag, parseCommand, stringFlag, type OptionSpecs } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT, UsageError } from '../lib/errors.js';
import { table, type Output } from '../lib/output.js';
import { assertCapabilities } from '../lib/capabilityCheck.js';
import { generateOne } from '../lib/generateOne.js';
import { renderDrift } from '../lib/render.js';
import { loadGenerated, loadRepo } from '../lib/repo.js';
import { SPEND_OPTIONS } from '../lib/reviewOptions.js';
import { openSession } from '../lib/session.js';
import { plannedTokens, spendStep, spentLine, tokensSpent } from '../lib/spend.js';

const OPTIONS = {
  framework: { type: 'string', valueName: 'F', description: 'one document now: generate for framework F (slug or name), wait, download; no compliance.yml' },
  type: { type: 'string', valueName: 'T', description: 'with --framework: the document type (GET /capabilities lists them; default: the service\'s)' },
  format: { type: 'string', valueName: 'FORMAT', description: 'with --framework: md (default), json, pdf or docx' },
  output: { type: 'string', short: 'o', valueName: 'FILE', description: 'with --framework: write here (default: md/json to stdout, pdf/docx under the service\'s file name)' },
  'no-wait': { type: 'boolean', description: 'with --framework: print the job and return (then jobs wait, download)' },
  timeout: { type: 'string', valueName: 'S', description: 'with --framework: stop waiting after S seconds (the job goes on)' },
  drifted: { type: 'boolean', description: 'regenerate the drifted documents (framework updated, parameters changed, missing)' },
  only: { type: 'string', valueName: 'OUTPUTS', description: 'regenerate these outputs (comma-separated, as in compliance.yml generate[].output)' },
  all: { type: 'boolean', description: 'regenerate every document (hand-edited ones still need --force)' },
  force: { type: 'boolean', description: 'also overwrite documents edited by hand' },
  formats: { type: 'string', valueName: 'LIST', description: 'also write these formats (md,json,pdf,docx) besides the configured ones' },
  ...SPEND_OPTIONS,
  ...REPO_OPTIONS,
  ...CONNECTION_OPTIONS,
} as const satisfies OptionSpecs;

export const generateCommand: Command = {
  options: OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance generate --framework F [--type T] [--format pdf] [-o FILE] | [--drifted | --only OUTPUTS | --all] [options]',
      description:
        'One document: --framework F submits the generation, waits with progress and downloads it (--no-wait prints the job).\n\n' +
        'The documents compliance.yml lists under generate: checks them against .compliance/generated.json: drifted when the framework has updated, the\n' +
        'parameters in compliance.yml changed or a file is missing; a file edited by hand is never overwritten without\n' +
        '--force. Without --drifted, --only or --all it only reports (free). Files and the manifest are written atomically.',
      notes: ['Money: each document is one generation, charged as GET /billing lists it; --dry-run and --max-tokens apply.'],
      examples: ['compliance generate --framework hipaa-security --type information_security_policy --format pdf -o policy.pdf',
        'compliance generate --framework gdpr --no-wait --json',
        'compliance generate                     # drift report of compliance.yml generate:', 'compliance generate --drifted --dry-run', 'compliance generate --only generated/nist-csf-policy --formats md,pdf --force'],
    });
    if (!parsed) return 0;
    const v = parsed.values;
    const framework = stringFlag(v, 'framework');
    const oneOnly = ['type', 'format', 'output', 'no-wait', 'timeout'].filter((flag) => v[flag] !== undefined);
    if (framework !== undefined) {
      const clash = ['drifted', 'all', 'only', 'force', 'formats'].filter((flag) => v[flag] !== undefined);
      if (clash.length) throw new UsageError(`--framework generates one document; --${clash[0]} is for the documents compliance.yml lists`, 'Run them as two commands.');
      const format = enumFlag(v, 'format', FORMATS) ?? 'md';
      const session = await openSession(parsed, out);
      try {
        return await generateOne(parsed, out, session, { framework, format });
      } finally {
        await session.close();
      }
    }
    if (oneOnly.length) throw new UsageError(`--${oneOnly[0]} needs --framework`, 'For example: compliance generate --framework hipaa-security --format pdf -o policy.pdf');
    const selections = ['drifted', 'all'].filter((flag) => booleanFlag(v, flag)).length + (v.only !== undefined ? 1 : 0);
    if (selections > 1) throw new UsageError('give one of --drifted, --only, --all');
    const only = listFlag(v, 'only');
    const formats: DownloadFormat[] | undefined = listFlag(v, 'formats', FORMATS);
    const maxTokens = integerFlag(v, 'max-tokens', { min: 0 });
    const repo = await loadRepo(parsed);
    if (repo.config.generate.length === 0) throw new UsageError(`${repo.configPath} lists no documents under generate:`, 'Add an entry (see `compliance init`).');
    const generated = await loadGenerated(repo);

    const session = await openSession(parsed, out);
    try {
      const { client } = session;
      const capabilities = await client.getCapabilities();
      // A wrong document type is refused here, free, rather than by the service after pricing.
      assertCapabilities({ frameworks: [], generate: repo.config.generate }, capabilities, repo.configPath);
      const verified = capabilities.verifiedFrameworks;
      const frameworkValues = [...new Set(repo.config.generate.map((target) => target.framework))];
      const slugOf = new Map(frameworkValues.map((value) => [value, resolveFrameworkSlug(value, verified)]));
      const updates = await checkFrameworkUpdates(client, [...new Set(slugOf.values())], undefined);
      const latest = new Map(updates.map((entry) => [entry.slug, entry.latestUpdate]));
      const drift = detectDrift({
        manifest: generated.manifest,
        targets: repo.config.generate,
        files: generated.files,
        frameworkUpdatedAt: Object.fromEntries(frameworkValues.map((value) => [value, latest.get(slugOf.get(value) ?? value)])),
      });
      if (selections === 0) {
        out.result(
          () => `${renderDrift(drift.documents) ?? ''}\n\nNothing generated: pass --drifted, --only OUTPUTS or --all.`,
          () => ({ generated: [], drift: drift.documents.map(({ target: _target, ...rest }) => rest), orphaned: drift.orphaned, files: [] }),
        );
        return EXIT.ok;
      }
      const plan = planGeneration(drift.documents, {
        ...(only ? { only } : booleanFlag(v, 'all') ? { only: drift.documents.map((d) => d.output) } : {}),
        force: booleanFlag(v, 'force'),
      });
      const step = await spendStep(
        session,
        out,
        [generationCalls(plan.generate.length)],
        {
          maxTokens,
          dryRun: booleanFlag(v, 'dry-run'),
          what: `${plan.generate.length} generation(s)`,
          // A failed generation is not charged.
          settle: (run, charged) => run.results.filter((r) => r.status === 'generated').length * (priceOf('generateDocument', charged.prices) ?? 0),
        },
        async () => {
          const run = await runGeneration(client, plan.generate, {
            manifest: generated.manifest,
            now: new Date().toISOString(),
            ...(formats ? { formats } : {}),
            onProgress: (event) => out.progress(`${event.output}: ${event.status}`),
          });
          out.done();
          return run;
        },
      );
      const dryRun = step.status === 'dry-run';
      if (dryRun || plan.generate.length === 0) {
        out.result(
          () => [`${dryRun ? 'Dry run' : 'Nothing to generate'}: ${plan.generate.map((d) => d.output).join(', ') || 'no document'} ${dryRun ? 'would be generated' : ''}`.trim(),
            ...plan.skipped.map((s) => `  skipped ${s.output}: ${s.reason}`)].join('\n'),
          () => ({ dryRun, plannedTokens: plannedTokens(step) ?? null, generate: plan.generate.map((d) => d.output), skipped: plan.skipped, files: [] }),
        );
        return EXIT.ok;
      }
      const result = step.value;
      const written: string[] = [];
      for (const file of result.files) {
        await writeRepoFile(repo.root, file.path, file.data);
        written.push(file.path);
      }
      if (result.files.length > 0) await writeManifest(repo.root, result.manifest);
      const failed = result.results.filter((r) => r.status !== 'generated');
      const spent = tokensSpent(step);
      out.result(
        () => [
          table(['Output', 'Result', 'Job'], result.results.map((r) => [r.output, r.error ? `${r.status}: ${r.error.message}` : r.status, r.jobId ?? '—']), { whole: [2] }),
          ...plan.skipped.map((s) => `skipped ${s.output}: ${s.reason}`),
          written.length ? `Wrote ${written.join(', ')} and .compliance/generated.json.` : 'Nothing written.',
          spentLine(step.mode, spent),
        ].join('\n'),
        () => ({ dryRun: false, tokensSpent: spent ?? null, results: result.results, skipped: plan.skipped, files: written }),
      );
      return failed.length > 0 ? EXIT.service : EXIT.ok;
    } finally {
      await session.close();
    }
  },
};
