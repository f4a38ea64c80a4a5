/** `compliance frameworks list|get`: verified frameworks and one framework's details (free). */
import { CONNECTION_OPTIONS, parseCommand, subcommandOf } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT, UsageError } from '../lib/errors.js';
import { resolveFrameworkArgument } from '../lib/frameworkMatch.js';
import { fields, table, type Output } from '../lib/output.js';
import { withSession } from '../lib/session.js';

export const frameworksCommand: Command = {
  options: CONNECTION_OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, CONNECTION_OPTIONS, {
      usage: 'compliance frameworks list | get <slug> [options]',
      description: 'list: the verified frameworks mapping accepts (GET /capabilities). get: regulator, source, controls and dated updates\n(GET /frameworks/{slug}). Both free.',
      examples: ['compliance frameworks list', 'compliance frameworks get hipaa-security', 'compliance frameworks get nist-csf-2 --json'],
    }, { min: 1, max: 2, names: 'subcommand (list or get <slug>)' });
    if (!parsed) return 0;
    const [action, slug] = parsed.positionals;
    if (action === 'list') {
      if (slug) throw new UsageError('list takes no argument');
      return withSession(parsed, out, async ({ client }) => {
        const { verifiedFrameworks } = await client.getCapabilities();
        out.result(() => table(['Slug', 'Name'], verifiedFrameworks.map((f) => [f.slug, f.name]), { whole: [0] }), () => ({ frameworks: verifiedFrameworks }));
        return EXIT.ok;
      });
    }
    subcommandOf('frameworks', action);
    if (!slug) throw new UsageError('get needs a framework slug', 'For example: compliance frameworks get hipaa-security (see compliance frameworks list).');
    return withSession(parsed, out, async ({ client }) => {
      // Resolved against the verified list first: `hipaa` must not silently pick one of two HIPAA frameworks.
      const { verifiedFrameworks } = await client.getCapabilities();
      const f = await client.getFramework({ slug: resolveFrameworkArgument(slug, verifiedFrameworks) });
      out.result(
        () => [
          fields([['Framework', `${f.name}${f.version ? ` (${f.version})` : ''}`], ['Slug', f.slug], ['Regulator', f.regulator], ['Jurisdiction', f.jurisdiction], ['Sector', f.sector], ['Verified', f.verified ? 'yes' : 'no'], ['Source', f.sourceUrl], ['Controls', f.controls?.length]]),
          f.updates.length ? `\nUpdates:\n${table(['Date', 'Update'], f.updates.map((u) => [u.date, u.title]))}` : '\nUpdates: none listed.',
        ].join('\n'),
        () => f,
      );
      return EXIT.ok;
    });
  },
};
