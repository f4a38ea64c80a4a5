/** planReview: the review loop's dry run for a repository directory, as a free read-only tool. */
import { z } from 'zod/v4/mini';
import { withMeta } from '../../api/schemas/miniExtras.js';
import { CONFIG_FILE_NAME } from '../../review/config.js';
import { readDeclarations } from '../../review/declarations.js';
import { readConfigFile } from '../../review/node/config.js';
import { runReview } from '../../review/review.js';
import { today } from '../lib/format.js';
import { loadDocuments } from '../lib/repo.js';
import { answer } from './answer.js';
import { inputJsonSchema, parse, type ToolDefinition } from './tools.js';

const planReviewInput = z.strictObject({
  directory: withMeta(z.string().check(z.minLength(1)), { description: 'The repository root holding compliance.yml, absolute or relative to where the server runs, e.g. "." or "/home/me/acme-policies". From the user.' }),
  config: withMeta(z.optional(z.string().check(z.minLength(1))), { description: `The configuration file, relative to the root, e.g. "${CONFIG_FILE_NAME}" (the default).` }),
});

export function planReviewTool(): ToolDefinition {
  const title = 'Plan and price a review (dry run)';
  return {
    tool: {
      name: 'planReview', title,
      description: 'Price what a review of a repository directory would do (its compliance.yml): the library sync (new and changed documents), the framework mappings and the gate, without spending anything or writing anywhere. Free: read-only calls only.',
      inputSchema: inputJsonSchema(planReviewInput),
      annotations: { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    group: 'review',
    charged: [],
    async run(args, context, { signal }) {
      const input = parse(planReviewInput, args);
      const root = context.resolveDirectory(input.directory);
      const configPath = input.config ?? CONFIG_FILE_NAME;
      const config = await readConfigFile(root, configPath);
      const files = await loadDocuments({ root, configPath, config });
      const budget = context.budget.report();
      // Checked against the session's own cap (what it has spent and holds, and that a live key needs one).
      const result = await runReview(context.client, { config, files, readDeclarations, today: today(), dryRun: true, ledger: context.budget.ledger, signal });
      return answer(context, {
        charged: false,
        result: {
          status: result.status,
          mode: result.mode,
          documents: files.length,
          sync: result.sync ? { counts: result.sync.plan.counts } : null,
          frameworks: config.frameworks.map((framework) => framework.framework),
          estimate: result.estimate,
          budget: { allowed: result.budget.allowed, plannedTokens: result.budget.plannedTokens, chargedTokens: result.budget.chargedTokens, balanceTokens: result.budget.balanceTokens ?? null, reasons: result.budget.reasons },
          session: budget,
        },
      });
    },
  };
}
