/** `compliance auto-topup get|set`: the auto-top-up setting (free). */
import { PACK_CODES, type PackCode } from '../../api/schemas/common.js';
import { CONNECTION_OPTIONS, booleanFlag, enumFlag, integerFlag, parseCommand, type OptionSpecs, subcommandOf } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT, UsageError } from '../lib/errors.js';
import { tokens } from '../lib/format.js';
import type { Output } from '../lib/output.js';
import { withSession } from '../lib/session.js';

const OPTIONS = {
  threshold: { type: 'string', valueName: 'TOKENS', description: 'set: email a checkout link when the balance dips below this (at least 100000)' },
  pack: { type: 'string', valueName: 'PACK', description: `set: the pack to offer (${PACK_CODES.join(', ')})` },
  disable: { type: 'boolean', description: 'set: turn auto-top-up off' },
  ...CONNECTION_OPTIONS,
} as const satisfies OptionSpecs;

export const autoTopUpCommand: Command = {
  options: OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance auto-topup get | set (--threshold TOKENS --pack PACK | --disable) [options]',
      description: 'Reads or sets auto-top-up: when the balance dips below the threshold a prefilled checkout link for the pack is\nemailed to the billing contact, once per dip. No card is stored; nothing is charged automatically.',
      examples: ['compliance auto-topup get', 'compliance auto-topup set --threshold 500000 --pack pack50', 'compliance auto-topup set --disable'],
    }, { min: 1, max: 1, names: 'subcommand (get or set)' });
    if (!parsed) return 0;
    const action = parsed.positionals[0];
    subcommandOf('auto-topup', action);
    let input: { enabled: boolean; thresholdTokens?: number; pack?: PackCode } | undefined;
    if (action === 'set') {
      const threshold = integerFlag(parsed.values, 'threshold', { min: 100_000, example: '500000' });
      const pack = enumFlag(parsed.values, 'pack', PACK_CODES);
      if (booleanFlag(parsed.values, 'disable')) {
        if (threshold !== undefined || pack) throw new UsageError('--disable takes no --threshold or --pack');
        input = { enabled: false };
      } else {
        if (threshold === undefined) throw new UsageError('set needs --threshold TOKENS (or --disable)', 'For example --threshold 500000 --pack pack50.');
        if (!pack) throw new UsageError('set needs --pack PACK', `Use one of: ${PACK_CODES.join(', ')}.`);
        input = { enabled: true, thresholdTokens: threshold, pack };
      }
    }
    return withSession(parsed, out, async ({ client }) => {
      const setting = input ? await client.setAutoTopUp(input) : await client.getAutoTopUp();
      out.result(
        () => (setting.enabled ? `Auto-top-up is on: below ${tokens(setting.thresholdTokens ?? 0)}, a ${setting.pack} checkout link is emailed.` : 'Auto-top-up is off.'),
        () => setting,
      );
      return EXIT.ok;
    });
  },
};
