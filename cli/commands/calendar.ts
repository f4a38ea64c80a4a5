/** `compliance calendar get|set`: the review reminder cadence (free). */
import { CADENCES } from '../../api/schemas/common.js';
import { CONNECTION_OPTIONS, enumFlag, parseCommand, stringFlag, type OptionSpecs, subcommandOf } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT, UsageError } from '../lib/errors.js';
import { fields, type Output } from '../lib/output.js';
import { withSession } from '../lib/session.js';

const OPTIONS = {
  cadence: { type: 'string', valueName: 'CADENCE', description: `set: ${CADENCES.join(', ')}` },
  'first-review-at': { type: 'string', valueName: 'TIME', description: 'set: first review, ISO 8601 with a zone (default: one cadence from now)' },
  ...CONNECTION_OPTIONS,
} as const satisfies OptionSpecs;

export const calendarCommand: Command = {
  options: OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance calendar get | set --cadence CADENCE [--first-review-at TIME] [options]',
      description: 'Reads or sets the review cadence. Reminders are emailed to the technical contact; nothing runs or is charged.',
      examples: ['compliance calendar get', 'compliance calendar set --cadence quarterly --first-review-at 2026-12-01T09:00:00Z'],
    }, { min: 1, max: 1, names: 'subcommand (get or set)' });
    if (!parsed) return 0;
    const action = parsed.positionals[0];
    subcommandOf('calendar', action);
    const cadence = enumFlag(parsed.values, 'cadence', CADENCES);
    const firstReviewAt = stringFlag(parsed.values, 'first-review-at');
    if (action === 'set' && !cadence) throw new UsageError('set needs --cadence', `Use one of: ${CADENCES.join(', ')}.`);
    return withSession(parsed, out, async ({ client }) => {
      const calendar = action === 'set' && cadence ? await client.setCalendar({ cadence, ...(firstReviewAt ? { firstReviewAt } : {}) }) : await client.getCalendar();
      out.result(() => fields([['Cadence', calendar.cadence], ['First review', calendar.firstReviewAt ?? undefined], ['Next review', calendar.nextReviewAt ?? 'none']]), () => calendar);
      return EXIT.ok;
    });
  },
};
