/** `compliance ping`: check the connection and the key (free). */
import { CONNECTION_OPTIONS, parseCommand } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT } from '../lib/errors.js';
import { fields, type Output } from '../lib/output.js';
import { describeKey, withSession } from '../lib/session.js';

export const pingCommand: Command = {
  options: CONNECTION_OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, CONNECTION_OPTIONS, {
      usage: 'compliance ping [options]',
      description: 'Checks connectivity and the API key (GET /ping, free). The key is shown masked.',
      examples: ['compliance ping', 'COMPLIANCE_BASE_URL=http://127.0.0.1:4010 COMPLIANCE_API_KEY=csk_… compliance ping --json'],
    });
    if (!parsed) return 0;
    return withSession(parsed, out, async (session) => {
      const answer = await session.client.ping();
      const key = session.embedded ? '(embedded sandbox key)' : describeKey(process.env, parsed.values['api-key'] as string | undefined);
      out.result(
        () => fields([['Service', session.client.baseUrl], ['Key', key], ['Mode', answer.mode], ['Client', answer.client]]),
        () => ({ ...answer, baseUrl: session.client.baseUrl, key: key ?? null, embedded: Boolean(session.embedded) }),
      );
      return EXIT.ok;
    });
  },
};
