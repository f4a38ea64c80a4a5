/**
 * Drift of generated documents. A manifest committed beside them (.compliance/generated.json)
 * records what produced each file; a document is drifted when its framework has updated since,
 * its parameters in compliance.yml changed or a file is missing. A file edited by hand is reported
 * and never overwritten without force.
 */
import * as z from 'zod/v4/mini';
import { lazy } from '../api/schemas/lazy.js';
import { FORMATS, type DownloadFormat } from '../api/schemas/common.js';
import type { GenerateTarget } from './config.js';
import { ReviewError } from './errors.js';
import { bytesHash, contentHash, sameHash } from '../api/contentHash.js';
import { settleSync } from '../api/settle.js';

export const MANIFEST_PATH = '.compliance/generated.json';
const MANIFEST_SCHEMA_VERSION = 1;

/** The manifest's shape, built anew on each call: a test checks it fresh, the readers use manifestSchema. */
export const manifestShape = () =>
  z.looseObject({
    schemaVersion: z.literal(MANIFEST_SCHEMA_VERSION),
    documents: z.array(
      z.looseObject({
        output: z.string(),
        framework: z.string(),
        type: z.string(),
        parameters: z.record(z.string(), z.unknown()),
        /** The framework's newest update when the document was generated. */
        frameworkUpdatedAt: z.nullable(z.string()),
        generatedAt: z.string(),
        jobId: z.optional(z.string()),
        files: z.array(z.looseObject({ path: z.string(), format: z.enum(FORMATS), contentHash: z.string() })),
      }),
    ),
  });
// Built when a manifest is first read, not when the module loads (api/schemas/lazy.ts).
const manifestSchema = lazy(manifestShape);

export type GenerationManifest = z.output<typeof manifestSchema>;
export type ManifestEntry = GenerationManifest['documents'][number];

export function emptyManifest(): GenerationManifest {
  return { schemaVersion: MANIFEST_SCHEMA_VERSION, documents: [] };
}

export function parseManifest(text: string | undefined): GenerationManifest {
  if (text === undefined || text.trim() === '') return emptyManifest();
  // Settled, not caught: n8n's strict lint reads this file (the node imports the loop that imports it) and wants no throw inside a catch.
  const json = settleSync(() => JSON.parse(text) as unknown);
  if (!json.ok) throw new ReviewError('invalid_manifest', `${MANIFEST_PATH} is not valid JSON: ${(json.error as Error).message}`);
  const parsed = manifestSchema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ReviewError('invalid_manifest', `${MANIFEST_PATH}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim(),
      'Restore it from version control, or delete it and regenerate with --force.');
  }
  return parsed.data;
}

export function serializeManifest(manifest: GenerationManifest): string {
  const documents = [...manifest.documents].sort((a, b) => a.output.localeCompare(b.output));
  return `${JSON.stringify({ ...manifest, documents }, null, 2)}\n`;
}

/** What the service is asked for: compared with the manifest to see a parameter change. */
export function generationParameters(target: GenerateTarget): Record<string, unknown> {
  const raw: Record<string, unknown> = {
    type: target.type,
    framework: target.framework,
    organisation: target.organisation,
    jurisdiction: target.jurisdiction,
    context: target.context,
    humanize: target.humanize,
  };
  return canonical(raw) as Record<string, unknown>;
}

/** Keys sorted, undefined dropped: equal parameters serialise equally. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

const EXTENSIONS: Record<DownloadFormat, string> = { md: '.md', json: '.json', pdf: '.pdf', docx: '.docx' };

export function outputPath(target: Pick<GenerateTarget, 'output'>, format: DownloadFormat): string {
  return `${target.output}${EXTENSIONS[format]}`;
}

const TEXT_FORMATS = new Set<DownloadFormat>(['md', 'json']);

/** Text formats hash like library documents (line endings do not matter); pdf and docx hash as bytes. */
export function generatedFileHash(format: DownloadFormat, data: string | Uint8Array): string {
  if (TEXT_FORMATS.has(format)) return contentHash(typeof data === 'string' ? data : new TextDecoder().decode(data));
  return bytesHash(typeof data === 'string' ? new TextEncoder().encode(data) : data);
}

type DriftReason = 'framework-updated' | 'parameters-changed' | 'missing';

export interface DriftResult {
  output: string;
  target: GenerateTarget;
  status: 'up-to-date' | 'drifted' | 'edited-by-hand';
  /** Why it would be regenerated (also listed for a hand-edited document). */
  reasons: DriftReason[];
  /** Files whose content differs from what was generated. */
  editedFiles: string[];
  missingFiles: string[];
  /** The framework's newest update now: what a regeneration records. */
  frameworkUpdatedAt: string | undefined;
  generatedAt: string | undefined;
}

interface DetectDriftInput {
  manifest: GenerationManifest;
  targets: readonly GenerateTarget[];
  /** Current content of each generated file (see driftInputPaths); undefined when absent. */
  files: Readonly<Record<string, string | Uint8Array | undefined>>;
  /** Newest framework update date by the framework value in compliance.yml. */
  frameworkUpdatedAt: Readonly<Record<string, string | undefined>>;
}

/** The files detectDrift needs to read. */
export function driftInputPaths(targets: readonly GenerateTarget[]): string[] {
  return targets.flatMap((target) => target.formats.map((format) => outputPath(target, format)));
}

export function detectDrift(input: DetectDriftInput): { documents: DriftResult[]; orphaned: ManifestEntry[] } {
  const entries = new Map(input.manifest.documents.map((entry) => [entry.output, entry]));
  const documents = input.targets.map((target): DriftResult => {
    const entry = entries.get(target.output);
    const latest = input.frameworkUpdatedAt[target.framework];
    const reasons: DriftReason[] = [];
    const editedFiles: string[] = [];
    const missingFiles: string[] = [];
    for (const format of target.formats) {
      const path = outputPath(target, format);
      const data = input.files[path];
      if (data === undefined) {
        missingFiles.push(path);
        continue;
      }
      const recorded = entry?.files.find((file) => file.path === path);
      if (!recorded) {
        // A file we never generated sits where ours would go: overwriting it needs force.
        editedFiles.push(path);
      } else if (!sameHash(recorded.contentHash, generatedFileHash(format, data))) {
        editedFiles.push(path);
      }
    }
    if (!entry || missingFiles.length > 0) reasons.push('missing');
    if (entry && latest !== undefined && (entry.frameworkUpdatedAt === null || latest > entry.frameworkUpdatedAt)) reasons.push('framework-updated');
    if (entry && JSON.stringify(canonical(entry.parameters)) !== JSON.stringify(generationParameters(target))) reasons.push('parameters-changed');
    const status = editedFiles.length > 0 ? 'edited-by-hand' : reasons.length > 0 ? 'drifted' : 'up-to-date';
    return { output: target.output, target, status, reasons, editedFiles, missingFiles, frameworkUpdatedAt: latest, generatedAt: entry?.generatedAt };
  });
  const configured = new Set(input.targets.map((target) => target.output));
  return { documents, orphaned: input.manifest.documents.filter((entry) => !configured.has(entry.output)) };
}

export interface GenerationPlan {
  generate: DriftResult[];
  skipped: Array<{ output: string; reason: string }>;
}

/**
 * What to regenerate: the drifted documents (or the named outputs), never a hand-edited one
 * without force.
 */
export function planGeneration(drift: readonly DriftResult[], options: { only?: readonly string[]; force?: boolean } = {}): GenerationPlan {
  const plan: GenerationPlan = { generate: [], skipped: [] };
  const only = options.only ? new Set(options.only) : undefined;
  for (const document of drift) {
    if (only && !only.has(document.output)) continue;
    if (document.status === 'edited-by-hand' && !options.force) {
      plan.skipped.push({ output: document.output, reason: `edited by hand (${document.editedFiles.join(', ')}): use --force to overwrite` });
    } else if (document.status === 'up-to-date' && !only && !options.force) {
      plan.skipped.push({ output: document.output, reason: 'up to date' });
    } else {
      plan.generate.push(document);
    }
  }
  if (only) {
    for (const output of only) {
      if (!drift.some((document) => document.output === output)) plan.skipped.push({ output, reason: 'not in compliance.yml generate' });
    }
  }
  return plan;
}
