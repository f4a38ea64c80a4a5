/**
 * `compliance.yml`: the repo's review configuration. Validated with zod; every problem is reported
 * with the line and the key (`compliance.yml:12 frameworks[0].threshold: …`) and unknown keys are
 * errors, so a typo never passes silently.
 */
import * as z from 'zod/v4/mini';
import { LineCounter, parseDocument } from 'yaml';
import { CADENCES, FORMATS } from '../api/schemas/common.js';
import { superRefine } from '../api/schemas/miniExtras.js';
import { closestKey, formatPath, locate, valueAt, type PathSegment } from './configIssues.js';
import { ConfigError, type ConfigIssue } from './errors.js';
import { FAIL_ON } from './failOn.js';
import { YAML_LOG_LEVEL } from './frontMatter.js';
import { globToRegExp, isGlob, normaliseRepoPath } from './glob.js';

export const CONFIG_FILE_NAME = 'compliance.yml';

const text = z.string({ error: 'must be a text' }).check(z.trim(), z.minLength(1, { error: 'must not be empty' }));

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const isoDate = z
  .string({ error: 'must be a date written YYYY-MM-DD (quote it if your editor converts it)' })
  .check(
    z.regex(DATE_PATTERN, { error: 'must be a date written YYYY-MM-DD' }),
    z.refine((value: string) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
    }, { error: 'is not a real calendar date' }),
  );

const glob = z.pipe(text, z.transform(normaliseRepoPath)).check(superRefine((pattern: string, ctx) => {
  try {
    globToRegExp(pattern);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
}));

/** A list, also accepted as a single value for convenience (`tags: security`). */
function listOf<T extends z.ZodMiniType>(item: T) {
  return z.pipe(z.transform((value: unknown) => (typeof value === 'string' ? [value] : value)), z.array(item, { error: 'must be a list' }));
}

const tag = text.check(z.refine((value: string) => !value.toLowerCase().startsWith('repo:'), {
  error: 'tags starting with "repo:" are reserved: sync adds the repository tag itself',
}));

const documentGroup = z.strictObject({
  /** Referenced from frameworks[].documents. */
  name: z.optional(text.check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, { error: 'must be a simple name (letters, digits, ".", "_", "-")' }))),
  paths: z.pipe(listOf(glob), z.array(z.string()).check(z.minLength(1, { error: 'must list at least one glob' }))),
  category: z.optional(text),
  tags: z._default(listOf(tag), []),
});

export const MAPPING_MODES = ['combined', 'per-document'] as const;
export type MappingMode = (typeof MAPPING_MODES)[number];

const thresholdMessage = 'must be a number between 0 and 100';
const frameworkEntry = z.strictObject({
  /** A verified framework's slug (e.g. nist-csf-2) or its name. */
  framework: text,
  threshold: z.number({ error: thresholdMessage }).check(z.gte(0, { error: thresholdMessage }), z.lte(100, { error: thresholdMessage })),
  /** Group names or globs; default: every configured document. */
  documents: z.optional(z.pipe(listOf(text), z.array(z.string()).check(z.minLength(1, { error: 'must list at least one group or glob' })))),
  mode: z._default(z.enum(MAPPING_MODES, { error: `must be one of: ${MAPPING_MODES.join(', ')}` }), 'combined'),
});

const waiver = z.strictObject({
  framework: text,
  control: text,
  reason: text,
  owner: text,
  /** Last day the waiver holds. */
  expires: isoDate,
});

const gapIssues = z.strictObject({
  labels: z._default(listOf(text), ['compliance-gap']),
  assignees: z._default(listOf(z.pipe(text, z.transform((login: string) => login.replace(/^@/, '')))), []),
  titlePrefix: z._default(z.string({ error: 'must be a text' }), '[compliance]'),
  closeResolved: z._default(z.boolean({ error: 'must be true or false' }), true),
  maxNewPerRun: z._default(z.int({ error: 'must be a whole number of at least 0' }).check(z.gte(0, { error: 'must be a whole number of at least 0' })), 10),
});

const FORMAT_EXTENSION = /\.(md|json|pdf|docx)$/i;
const generateEntry = z.strictObject({
  type: text,
  framework: text,
  organisation: z.optional(z.strictObject({ name: z.optional(text), sector: z.optional(text), country: z.optional(text) })),
  jurisdiction: z.optional(text),
  context: z.optional(text),
  humanize: z.optional(z.boolean({ error: 'must be true or false' })),
  /** Repo path without extension: each format adds its own (`.md`, `.pdf`, …). */
  output: z.pipe(text, z.transform(normaliseRepoPath)).check(
    z.refine((path: string) => !FORMAT_EXTENSION.test(path), { error: 'give the path without an extension: each format adds its own' }),
    z.refine((path: string) => !path.split('/').includes('..'), { error: 'must stay inside the repository' }),
  ),
  formats: z._default(
    z.pipe(listOf(z.enum(FORMATS, { error: `must be one of: ${FORMATS.join(', ')}` })), z.array(z.enum(FORMATS)).check(z.minLength(1, { error: 'must list at least one format' }))),
    ['md'],
  ),
});

export const configSchema = z
  .strictObject({
    /** owner/name: the `repo:` tag that marks the documents sync created. The caller may pass it instead. */
    repository: z.optional(text.check(z.regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, { error: 'must be owner/name' }))),
    documents: z.array(documentGroup, { error: 'must be a list of document groups' }).check(z.minLength(1, { error: 'must list at least one document group' })),
    frameworks: z._default(z.array(frameworkEntry, { error: 'must be a list' }), []),
    /**
     * What fails the gate besides the thresholds; absent means `coverage`. A CLI flag or action
     * input may make it stricter, never looser, and a pull request is judged by the default branch's.
     */
    failOn: z.optional(z.enum(FAIL_ON, { error: `must be one of: ${FAIL_ON.join(', ')}` })),
    waivers: z._default(z.array(waiver, { error: 'must be a list' }), []),
    gapIssues: z.prefault(gapIssues, {}),
    generate: z._default(z.array(generateEntry, { error: 'must be a list' }), []),
    review: z.prefault(z.strictObject({ cadence: z._default(z.enum(CADENCES, { error: `must be one of: ${CADENCES.join(', ')}` }), 'none') }), {}),
  })
  .check(superRefine((config, ctx) => {
    const names = new Map<string, number>();
    config.documents.forEach((group, index) => {
      if (group.name === undefined) return;
      if (names.has(group.name)) {
        ctx.addIssue({ code: 'custom', path: ['documents', index, 'name'], message: `duplicate group name "${group.name}"` });
      }
      names.set(group.name, index);
    });
    config.frameworks.forEach((entry, index) => {
      entry.documents?.forEach((ref, refIndex) => {
        // A bare word is a group reference; a path or glob is matched against the files later.
        if (!names.has(ref) && !isGlob(ref) && !ref.includes('/') && !ref.includes('.')) {
          ctx.addIssue({
            code: 'custom',
            path: ['frameworks', index, 'documents', refIndex],
            message: `no document group named "${ref}"${names.size ? ` (groups: ${[...names.keys()].join(', ')})` : ''}`,
          });
        }
      });
    });
    // The same framework twice would be mapped and charged twice; names that resolve to one slug
    // are caught again once the catalogue is read (assertDistinctFrameworks).
    const listed = new Map<string, number>();
    config.frameworks.forEach((entry, index) => {
      const key = entry.framework.trim().toLowerCase();
      const earlier = listed.get(key);
      if (earlier !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['frameworks', index, 'framework'], message: `"${entry.framework}" is already listed at frameworks[${earlier}]: each entry is mapped and charged, so list it once` });
      } else listed.set(key, index);
    });
    const waived = new Set<string>();
    config.waivers.forEach((entry, index) => {
      const key = `${entry.framework.toLowerCase()}\u0000${entry.control.toLowerCase()}`;
      if (waived.has(key)) {
        ctx.addIssue({ code: 'custom', path: ['waivers', index, 'control'], message: `a waiver for ${entry.framework} ${entry.control} is already listed` });
      }
      waived.add(key);
    });
    const outputs = new Set<string>();
    config.generate.forEach((entry, index) => {
      if (outputs.has(entry.output)) {
        ctx.addIssue({ code: 'custom', path: ['generate', index, 'output'], message: `another entry already writes ${entry.output}` });
      }
      outputs.add(entry.output);
    });
  }));

export type Config = z.output<typeof configSchema>;
export type DocumentGroup = Config['documents'][number];
export type FrameworkConfig = Config['frameworks'][number];
export type Waiver = Config['waivers'][number];
export type GapIssueSettings = Config['gapIssues'];
export type GenerateTarget = Config['generate'][number];

// Every key the schema knows, for "did you mean" on unknown keys.
const KNOWN_KEYS = [
  'repository', 'documents', 'frameworks', 'failOn', 'waivers', 'gapIssues', 'generate', 'review',
  'name', 'paths', 'category', 'tags', 'framework', 'threshold', 'mode', 'control', 'reason',
  'owner', 'expires', 'labels', 'assignees', 'titlePrefix', 'closeResolved', 'maxNewPerRun',
  'type', 'organisation', 'sector', 'country', 'jurisdiction', 'context', 'humanize', 'output',
  'formats', 'cadence',
];

function suggestKey(key: string): string {
  const known = closestKey(key, KNOWN_KEYS);
  return known ? ` (did you mean "${known}"?)` : '';
}

const TOP_LEVEL_KEYS = Object.keys(configSchema.shape);

/**
 * Whether `data` is meant as a compliance configuration: one of its top-level keys is one of ours, or
 * a small edit away. Of a file that is not (any readable file a caller could name as the config),
 * the errors say so without listing its keys, so they never show what the file holds.
 */
function isMeantAsConfig(data: unknown): boolean {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return true;
  return Object.keys(data).some((key) => closestKey(key, TOP_LEVEL_KEYS) !== undefined);
}

/** Parses and validates compliance.yml; throws ConfigError listing every problem with its line. */
export function parseConfig(source: string, fileName: string = CONFIG_FILE_NAME): Config {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, schema: 'core', prettyErrors: false, logLevel: YAML_LOG_LEVEL });
  const issueAt = (offset: number | undefined, path: readonly PathSegment[], message: string): ConfigIssue => {
    const pos = offset === undefined ? undefined : lineCounter.linePos(offset);
    return { file: fileName, line: pos?.line, column: pos?.col, path: formatPath(path), message };
  };

  if (doc.errors.length > 0) {
    throw new ConfigError(doc.errors.map((error) => issueAt(error.pos[0], [], error.message.split('\n')[0] ?? error.message)));
  }
  let data: unknown;
  try {
    data = doc.toJS();
  } catch (error) {
    // yaml refuses an alias expanding past its limit (a "billion laughs" bomb): the file is wrong, not the CLI.
    throw new ConfigError([issueAt(undefined, [], `cannot be read: ${error instanceof Error ? error.message : String(error)}; write the values out instead of repeating YAML aliases`)]);
  }
  if (data === null || data === undefined) {
    throw new ConfigError([issueAt(undefined, [], 'is empty: run `compliance init` for a commented example')]);
  }
  if (!isMeantAsConfig(data)) {
    throw new ConfigError([issueAt(undefined, [], `is not a compliance configuration: none of its top-level keys is ${TOP_LEVEL_KEYS.join(', ')} (its content is not shown)`)]);
  }
  const result = configSchema.safeParse(data);
  if (result.success) return result.data;

  const issues = result.error.issues.flatMap((issue): ConfigIssue[] => {
    const path = issue.path.filter((seg): seg is PathSegment => typeof seg !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) =>
        issueAt(locate(doc.contents, path, key), [...path, key], `unknown key${suggestKey(key)}`),
      );
    }
    const missing = issue.code === 'invalid_type' && valueAt(data, path) === undefined;
    return [issueAt(locate(doc.contents, path), path, missing ? 'is required' : issue.message)];
  });
  issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  throw new ConfigError(issues);
}
