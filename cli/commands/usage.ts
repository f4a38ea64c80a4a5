/** `compliance usage`: request, generation and library counters against the key's limits (free). */
import { CONNECTION_OPTIONS, parseCommand } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT } from '../lib/errors.js';
import { table, type Output } from '../lib/output.js';
import { withSession } from '../lib/session.js';

export const usageCommand: Command = {
  options: CONNECTION_OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, CONNECTION_OPTIONS, {
      usage: 'compliance usage [options]',
      description: 'Shows GET /usage: requests per minute, generations per day and 30 days, library documents (free).',
      examples: ['compliance usage', 'compliance usage --json'],
    });
    if (!parsed) return 0;
    return withSession(parsed, out, async ({ client }) => {
      const usage = await client.getUsage();
      const rows: string[][] = [];
      if (usage.requests) rows.push(['Requests this minute', String(usage.requests.perMinute.used), String(usage.requests.perMinute.limit)]);
      if (usage.generations) {
        rows.push(['Generations, 24 h', String(usage.generations.day.used), String(usage.generations.day.limit)]);
        rows.push(['Generations, 30 days', String(usage.generations.thirtyDays.used), String(usage.generations.thirtyDays.limit)]);
      }
      if (usage.library) rows.push(['Library documents', String(usage.library.documents.used), String(usage.library.documents.limit)]);
      out.result(() => (rows.length ? table(['Counter', 'Used', 'Limit'], rows) : JSON.stringify(usage, null, 2)), () => usage);
      return EXIT.ok;
    });
  },
};
