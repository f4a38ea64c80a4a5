/** `compliance billing`: balance, meter, packs and the recent ledger (free). */
import { CONNECTION_OPTIONS, integerFlag, parseCommand, type OptionSpecs } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT } from '../lib/errors.js';
import { tokens, usd } from '../lib/format.js';
import { fields, table, type Output } from '../lib/output.js';
import { withSession } from '../lib/session.js';

const OPTIONS = { ledger: { type: 'string', valueName: 'N', description: 'ledger entries to show (default 10)' }, ...CONNECTION_OPTIONS } as const satisfies OptionSpecs;

export const billingCommand: Command = {
  options: OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance billing [options]',
      description: 'Shows GET /billing (free; open also when the account is read-only).',
      examples: ['compliance billing', 'compliance billing --ledger 50 --json'],
    });
    if (!parsed) return 0;
    const ledgerCount = integerFlag(parsed.values, 'ledger', { min: 0, max: 1000 }) ?? 10;
    return withSession(parsed, out, async ({ client }) => {
      const billing = await client.getBilling();
      out.result(
        () => [
          fields([
            ['Balance', `${tokens(billing.balanceTokens)} (about ${usd(billing.balanceTokens)})`],
            ['Status', billing.status],
            ['Plan', `${billing.meter.plan}: ${tokens(billing.meter.dailyFloorTokens)} a day (about US$${billing.meter.monthlyUsdEquivalent} a month)`],
            ['Days remaining', billing.meter.estimatedDaysRemaining ?? undefined],
            ['Auto-top-up', billing.autoTopUp ? (billing.autoTopUp.enabled ? `below ${tokens(billing.autoTopUp.thresholdTokens ?? 0)}: ${billing.autoTopUp.pack}` : 'off') : undefined],
          ]),
          '',
          table(['Operation', 'Price'], Object.entries(billing.prices).map(([op, price]) => [op, tokens(price)])),
          '',
          table(['Pack', 'Price', 'Tokens'], billing.packs.map((p) => [p.code, `US$${p.priceUsd}`, tokens(p.tokens)])),
          '',
          billing.ledger.length ? table(['When', 'Operation', 'Tokens', 'Balance after', 'Reference'], billing.ledger.slice(-ledgerCount).map((e) => [
            e.at, e.operation, e.tokens.toLocaleString('en-US'), e.balanceAfter?.toLocaleString('en-US') ?? '—', e.reference ?? '—',
          ])) : 'Ledger: empty.',
        ].join('\n'),
        () => billing,
      );
      return EXIT.ok;
    });
  },
};
