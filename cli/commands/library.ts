/** `compliance library list|get|delete|search|ingest|refresh`: the private document library. */
import { CONNECTION_OPTIONS, booleanFlag, integerFlag, listFlag, parseCommand, stringFlag, type OptionSpecs, subcommandOf } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT, UsageError } from '../lib/errors.js';
import { fields, table, type Output } from '../lib/output.js';
import { SPEND_OPTIONS } from '../lib/reviewOptions.js';
import { withSession } from '../lib/session.js';
import { ingestFiles, refreshFile } from '../lib/libraryWrite.js';
import { plannedTokens, spendStep, spentLine, tokensSpent } from '../lib/spend.js';

const OPTIONS = {
  category: { type: 'string', valueName: 'NAME', description: 'list, search: only this category; ingest: the category given' },
  tags: { type: 'string', valueName: 'LIST', description: 'ingest: tags given to each document, comma-separated' },
  tag: { type: 'string', valueName: 'TAG', description: 'list: only documents with this tag; search: tags, comma-separated' },
  limit: { type: 'string', valueName: 'N', description: 'search: at most N results' },
  content: { type: 'boolean', description: 'get: include the stored text' },
  ...SPEND_OPTIONS,
  ...CONNECTION_OPTIONS,
} as const satisfies OptionSpecs;

export const libraryCommand: Command = {
  options: OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance library list | get <id> [--content] | delete <id> | search "<query>" | ingest FILE... | refresh <id> FILE [options]',
      description: 'Lists (all pages), reads and deletes library documents (free), and searches them (5,000 tokens a query in live mode).\n' +
        'ingest FILE...: one document per file (title: its first heading; filename: its path), waiting for each; refresh <id> FILE:\n' +
        'replace a document\'s text (nothing sent when it is the same). Both charged as GET /billing lists; every file is checked first.',
      notes: ['Money: ingest and refresh print each file\'s price and the balance first; --dry-run lists the charges and sends nothing;\n--max-tokens N refuses a dearer plan; a plan the balance cannot pay is refused before anything is sent (exit 3).'],
      examples: ['compliance library list --tag repo:acme/policies', 'compliance library get doc_1 --content', 'compliance library search "encryption at rest" --limit 5', 'compliance library delete doc_1 --json',
        'compliance library ingest policies/*.md --category Policies --tags security,hr --dry-run', 'compliance library refresh doc_1 policies/access.md'],
    }, { min: 1, max: 1000, names: 'subcommand (list, get, delete, search, ingest or refresh)' });
    if (!parsed) return 0;
    const v = parsed.values;
    const [action, argument] = parsed.positionals;
    subcommandOf('library', action);
    const extra = parsed.positionals[action === 'ingest' ? 1000 : action === 'refresh' ? 3 : 2];
    if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`, `Usage: compliance library ${action} …`);
    const needArgument = (what: string) => {
      if (!argument) throw new UsageError(`${action} needs ${what}`, `Usage: compliance library ${action} <${what}>`);
      return argument;
    };
    const category = stringFlag(v, 'category');
    switch (action) {
      case 'list': {
        const tag = stringFlag(v, 'tag');
        return withSession(parsed, out, async ({ client }) => {
          const documents = await client.listAllLibraryDocuments({ ...(category ? { category } : {}), ...(tag ? { tag } : {}) });
          out.result(
            () => (documents.length ? table(['Id', 'Title', 'File', 'Category', 'Version', 'Tags'], documents.map((d) => [d.id, d.title, d.filename ?? '—', d.category ?? '—', String(d.version), d.tags.join(', ')]), { whole: [0] }) : 'The library is empty.') + `\n${documents.length} document(s).`,
            () => ({ documents }),
          );
          return EXIT.ok;
        });
      }
      case 'get': {
        const id = needArgument('id');
        return withSession(parsed, out, async ({ client }) => {
          const doc = await client.getLibraryDocument({ id, ...(booleanFlag(v, 'content') ? { include: 'content' as const } : {}) });
          out.result(
            () => [fields([['Id', doc.id], ['Title', doc.title], ['File', doc.filename], ['Category', doc.category], ['Tags', doc.tags.join(', ')], ['Version', doc.version], ['Size', doc.size], ['Hash', doc.contentHash], ['Summary', doc.summary]]), ...(doc.content ? ['', doc.content] : [])].join('\n'),
            () => doc,
          );
          return EXIT.ok;
        });
      }
      case 'delete': {
        const id = needArgument('id');
        return withSession(parsed, out, async ({ client }) => {
          const result = await client.deleteLibraryDocument({ id });
          out.result(() => `Deleted ${result.id}.`, () => result);
          return EXIT.ok;
        });
      }
      case 'search': {
        const query = needArgument('query');
        const tags = listFlag(v, 'tag');
        const limit = integerFlag(v, 'limit', { min: 1, max: 1000 });
        const maxTokens = integerFlag(v, 'max-tokens', { min: 0 });
        return withSession(parsed, out, async (session) => {
          const step = await spendStep(session, out, [{ operationId: 'searchLibrary', count: 1 }], { maxTokens, dryRun: booleanFlag(v, 'dry-run'), what: 'one library search' }, () =>
            session.client.searchLibrary({ query, ...(category ? { category } : {}), ...(tags ? { tags } : {}), ...(limit ? { limit } : {}) }),
          );
          if (step.status === 'dry-run') {
            out.result(() => 'Dry run: nothing sent.', () => ({ dryRun: true, plannedTokens: plannedTokens(step) ?? null, refusal: step.refusal?.message ?? null }));
            return EXIT.ok;
          }
          const result = step.value;
          const unmark = (text: string) => text.replace(/<mark>(.*?)<\/mark>/g, (_, hit: string) => (out.color ? out.style(hit, 'bold') : `*${hit}*`));
          const spent = tokensSpent(step);
          out.result(
            () => `${result.results.length ? result.results.map((hit, i) => `${i + 1}. ${hit.title} (${hit.filename ?? hit.documentId}, score ${hit.score.toFixed(2)})\n${hit.snippets.map((s) => `   ${unmark(s)}`).join('\n')}`).join('\n') : 'No match.'}\n${spentLine(step.mode, spent)}`,
            () => ({ ...result, tokensSpent: spent ?? null }),
          );
          return EXIT.ok;
        });
      }
      case 'ingest': {
        const files = parsed.positionals.slice(1);
        if (files.length === 0) throw new UsageError('ingest needs at least one FILE', 'Usage: compliance library ingest FILE... [--category NAME] [--tags a,b]');
        return withSession(parsed, out, (session) => ingestFiles(parsed, out, session, files));
      }
      case 'refresh': {
        const id = needArgument('id');
        const file = parsed.positionals[2];
        if (!file) throw new UsageError('refresh needs a document id and a FILE', 'Usage: compliance library refresh <id> FILE');
        return withSession(parsed, out, (session) => refreshFile(parsed, out, session, id, file));
      }
      default:
        return EXIT.usage; // subcommandOf refused anything else
    }
  },
};
