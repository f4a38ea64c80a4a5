/** `compliance suggest <query>`: framework discovery (charged in live mode). */
import { CONNECTION_OPTIONS, booleanFlag, integerFlag, parseCommand, stringFlag, type OptionSpecs } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT } from '../lib/errors.js';
import { table, type Output } from '../lib/output.js';
import { SPEND_OPTIONS } from '../lib/reviewOptions.js';
import { withSession } from '../lib/session.js';
import { plannedTokens, spendStep, spentLine, tokensSpent } from '../lib/spend.js';

const OPTIONS = {
  jurisdiction: { type: 'string', valueName: 'TEXT', description: 'for example US, EU, "New South Wales"' },
  domain: { type: 'string', valueName: 'TEXT', description: 'for example health, payments, AI' },
  regulator: { type: 'string', valueName: 'TEXT', description: 'a regulator to focus on' },
  description: { type: 'string', valueName: 'TEXT', description: 'what the organisation does' },
  ...SPEND_OPTIONS,
  ...CONNECTION_OPTIONS,
} as const satisfies OptionSpecs;

export const suggestCommand: Command = {
  options: OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance suggest "<query>" [options]',
      description: 'Framework discovery (POST /frameworks/suggest): ranked candidates with regulator, jurisdiction, sector, source,\nconfidence and reasoning. Charged per query in live mode (price from GET /billing); --dry-run shows it.',
      examples: ['compliance suggest "health data privacy" --jurisdiction US', 'compliance suggest "card payments" --domain payments --json'],
    }, { min: 0, max: 1, names: 'query' });
    if (!parsed) return 0;
    const v = parsed.values;
    const input = {
      ...(parsed.positionals[0] ? { query: parsed.positionals[0] } : {}),
      ...Object.fromEntries((['jurisdiction', 'domain', 'regulator', 'description'] as const).flatMap((name) => {
        const value = stringFlag(v, name);
        return value ? [[name, value]] : [];
      })),
    };
    const maxTokens = integerFlag(v, 'max-tokens', { min: 0 });
    return withSession(parsed, out, async (session) => {
      const step = await spendStep(session, out, [{ operationId: 'suggestFrameworks', count: 1 }], { maxTokens, dryRun: booleanFlag(v, 'dry-run'), what: 'one discovery query' }, () =>
        session.client.suggestFrameworks(input),
      );
      if (step.status === 'dry-run') {
        out.result(() => 'Dry run: nothing sent.', () => ({ dryRun: true, plannedTokens: plannedTokens(step) ?? null, refusal: step.refusal?.message ?? null }));
        return EXIT.ok;
      }
      const result = step.value;
      const spent = tokensSpent(step);
      out.result(
        () => [
          table(['#', 'Framework', 'Regulator', 'Jurisdiction', 'Confidence', 'Slug'], result.candidates.map((c) => [
            String(c.rank), c.name, c.regulator, c.jurisdiction, `${Math.round(c.confidence * 100)}%`, c.slug ?? '—',
          ]), { whole: [5] }),
          ...result.candidates.slice(0, 3).map((c) => `\n${c.rank}. ${c.name}: ${c.reasoning}\n   ${c.sourceUrl}`),
          ...(result.warnings ?? []).map((w) => `\nwarning: ${w}`),
          `\n${spentLine(step.mode, spent)}`,
        ].join('\n'),
        () => ({ ...result, tokensSpent: spent ?? null }),
      );
      return EXIT.ok;
    });
  },
};
