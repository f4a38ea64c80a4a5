/** The flags the review loop's commands share: spending, the library sync, the gate and a pull request's mapping store. */
import { DEFAULT_MAPPING_STORE_DIR, MAPPING_STORE_FILE } from '../../review/pullRequest.js';
import type { OptionSpecs } from './args.js';

export const SPEND_OPTIONS = {
  'dry-run': { type: 'boolean', description: 'plan and price everything, spend nothing' },
  'max-tokens': { type: 'string', valueName: 'N', description: 'refuse, before spending anything, a plan that costs more than N tokens' },
} as const satisfies OptionSpecs;

export const SYNC_OPTIONS = {
  repo: { type: 'string', valueName: 'OWNER/NAME', description: 'repository tag for synced documents (default: compliance.yml repository, then GITHUB_REPOSITORY)' },
  'delete-removed': { type: 'boolean', description: 'delete library documents of this repo whose file is gone (never documents without its repo: tag)' },
  concurrency: { type: 'string', valueName: 'N', description: 'parallel uploads (1-16, default 4); pacing follows the rate-limit headers' },
} as const satisfies OptionSpecs;

export const GATE_OPTIONS = {
  'fail-on': { type: 'string', valueName: 'WHAT', description: 'coverage, new-gaps (also fail on gaps absent from --baseline) or declared-without-evidence (also fail on front matter satisfies: without evidence); default compliance.yml failOn, which this can only make stricter' },
  'base-config': { type: 'string', valueName: 'FILE', description: "ignored (older workflows pass it): a pull request's CI run is judged by its base commit's compliance.yml, read from git" },
  baseline: { type: 'string', valueName: 'FILE', description: 'a previous report.json or --json output: gaps in it are not new' },
  'report-dir': { type: 'string', valueName: 'DIR', description: 'write report.md, report.json (and the other --formats) into DIR' },
  formats: { type: 'string', valueName: 'LIST', description: 'report formats for --report-dir: md,json,html,sarif,junit,pdf,docx (default md,json)' },
  history: { type: 'string', valueName: 'DIR', description: "earlier report.json files: report.html's coverage trend" },
} as const satisfies OptionSpecs;

/** map's pull-request flag: where a pull request's mappings are kept between its runs. */
export const MAPPING_STORE_OPTIONS = {
  'mapping-store': { type: 'string', valueName: 'DIR', description: `in a pull request's CI run: the folder its mappings are kept in (${MAPPING_STORE_FILE}, relative to the repo root; default ${DEFAULT_MAPPING_STORE_DIR}); a re-run with the same framework and documents reuses them, 0 tokens` },
} as const satisfies OptionSpecs;
