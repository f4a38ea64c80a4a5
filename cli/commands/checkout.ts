/** `compliance checkout <pack>`: create a hosted checkout and print its URL (never opens a browser). */
import { PACK_CODES, PACKS, type PackCode } from '../../api/schemas/common.js';
import { CONNECTION_OPTIONS, parseCommand } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT, UsageError } from '../lib/errors.js';
import { tokens } from '../lib/format.js';
import type { Output } from '../lib/output.js';
import { withSession } from '../lib/session.js';

export const checkoutCommand: Command = {
  options: CONNECTION_OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, CONNECTION_OPTIONS, {
      usage: 'compliance checkout <pack> [options]',
      description: `Creates a hosted checkout (free; nothing is paid until the page is completed) and prints its URL to open in a\nbrowser. Packs: ${PACK_CODES.map((code) => `${code} (US$${PACKS[code].priceUsd}, ${tokens(PACKS[code].tokens)})`).join(', ')}.`,
      examples: ['compliance checkout pack25', 'compliance checkout pack100 --json'],
    }, { min: 1, max: 1, names: 'pack (pack10, pack25, pack50, pack100, pack200 or pack500)' });
    if (!parsed) return 0;
    const pack = parsed.positionals[0] as string;
    if (!(PACK_CODES as readonly string[]).includes(pack)) throw new UsageError(`unknown pack ${JSON.stringify(pack)}`, `Use one of: ${PACK_CODES.join(', ')}.`);
    return withSession(parsed, out, async ({ client }) => {
      const checkout = await client.createCheckout({ pack: pack as PackCode });
      out.result(() => `Open this page to pay for ${pack} (US$${PACKS[pack as PackCode].priceUsd}, ${tokens(PACKS[pack as PackCode].tokens)}):\n${checkout.url}\nCredits land on the balance automatically after payment.`, () => checkout);
      return EXIT.ok;
    });
  },
};
