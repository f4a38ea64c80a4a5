/**
 * Every command: its one-line summary for `compliance --help` and its module, loaded only when the
 * command runs, so `--help` and `--version` load none of them (nor the sandbox, the PDF reader or
 * undici behind them: the build splits each into its own chunk).
 */
import type { Command } from '../lib/command.js';

/** The groups of `compliance --help`, in the order shown. */
export const GROUPS = {
  loop: 'Review loop',
  service: 'Frameworks, documents and the library',
  account: 'Account and billing',
  tools: 'Tools',
} as const;

interface CommandEntry {
  summary: string;
  group: keyof typeof GROUPS;
  /** Its subcommands, where it has some (did you mean, completion). */
  subcommands?: readonly string[];
  load(): Promise<Command>;
}

export const COMMANDS: Record<string, CommandEntry> = {
  review: { group: 'loop', summary: 'the whole review loop per compliance.yml: sync, map, gate, updates, drift', load: () => import('./review.js').then((m) => m.reviewCommand) },
  sync: { group: 'loop', summary: 'sync the repo documents into the library: ingest new, refresh changed, nothing else charged', load: () => import('./sync.js').then((m) => m.syncCommand) },
  map: { group: 'loop', summary: 'map documents against a framework and gate on the coverage threshold', load: () => import('./map.js').then((m) => m.mapCommand) },
  gaps: { group: 'loop', summary: 'plan one issue per gap (create, update, close); --github applies it', load: () => import('./gaps.js').then((m) => m.gapsCommand) },
  generate: { group: 'loop', summary: 'generate --framework F: one document, waited for and downloaded; --drifted|--all: compliance.yml generate:', load: () => import('./generate.js').then((m) => m.generateCommand) },
  suggest: { group: 'service', summary: 'discover the regulatory frameworks that apply, ranked with reasons', load: () => import('./suggest.js').then((m) => m.suggestCommand) },
  frameworks: { group: 'service', subcommands: ['list', 'get'], summary: 'frameworks list|get <slug>: verified frameworks, controls and updates', load: () => import('./frameworks.js').then((m) => m.frameworksCommand) },
  library: { group: 'service', subcommands: ['list', 'get', 'delete', 'search', 'ingest', 'refresh'], summary: 'library list|get|delete|search|ingest FILE...|refresh <id> FILE: the private document library', load: () => import('./library.js').then((m) => m.libraryCommand) },
  jobs: { group: 'service', subcommands: ['get', 'wait'], summary: 'jobs get|wait <jobId>: status of a generation, mapping or library job', load: () => import('./jobs.js').then((m) => m.jobsCommand) },
  download: { group: 'service', summary: 'download a finished generation or mapping result (json, md, pdf, docx)', load: () => import('./download.js').then((m) => m.downloadCommand) },
  billing: { group: 'account', summary: 'token balance, daily meter, prices, credit packs and the recent ledger', load: () => import('./billing.js').then((m) => m.billingCommand) },
  checkout: { group: 'account', summary: 'buy a credit pack: prints the payment page URL', load: () => import('./checkout.js').then((m) => m.checkoutCommand) },
  'auto-topup': { group: 'account', subcommands: ['get', 'set'], summary: 'auto-top-up get|set: the low-balance checkout link setting', load: () => import('./autoTopUp.js').then((m) => m.autoTopUpCommand) },
  calendar: { group: 'account', subcommands: ['get', 'set'], summary: 'calendar get|set: the review reminder cadence and next date', load: () => import('./calendar.js').then((m) => m.calendarCommand) },
  usage: { group: 'account', summary: 'request, generation and library counters against the key\'s limits', load: () => import('./usage.js').then((m) => m.usageCommand) },
  ping: { group: 'account', summary: 'check the connection and the key; shows the key mode (sandbox or live)', load: () => import('./ping.js').then((m) => m.pingCommand) },
  call: { group: 'tools', summary: 'call any API operation by id (the `call` input convention); --file uploads, --output saves', load: () => import('./call.js').then((m) => m.callCommand) },
  mcp: { group: 'tools', summary: 'MCP server for AI assistants (stdio, or --http PORT): API and review tools inside a token budget', load: () => import('./mcp.js').then((m) => m.mcpCommand) },
  sandbox: { group: 'tools', summary: 'run the local sandbox server (all endpoints, sandbox and live keys)', load: () => import('./sandbox.js').then((m) => m.sandboxCommand) },
  init: { group: 'tools', summary: 'write a commented example compliance.yml', load: () => import('./init.js').then((m) => m.initCommand) },
  config: { group: 'tools', subcommands: ['check'], summary: 'config check: validate compliance.yml, list what it selects, check names with the service (free; --offline: no request)', load: () => import('./config.js').then((m) => m.configCommand) },
  completion: { group: 'tools', subcommands: ['bash', 'zsh', 'fish'], summary: 'completion bash|zsh|fish: the shell completion script (how to install it: completion --help)', load: () => import('./completion.js').then((m) => m.completionCommand) },
};
