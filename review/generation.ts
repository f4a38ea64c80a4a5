/**
 * Generating documents: one job at a time (the service allows one generation in flight per key),
 * each downloaded in every configured format. Returns the files and the new manifest; the caller
 * writes them.
 */
import type { ComplianceApi, Download } from '../api/clientTypes.js';
import { ComplianceError } from '../api/errors.js';
import type { DownloadFormat } from '../api/schemas/common.js';
import type { PlannedCalls } from './budget.js';
import { generatedFileHash, generationParameters, outputPath, type DriftResult, type GenerationManifest, type ManifestEntry } from './drift.js';

interface GeneratedFile {
  path: string;
  format: DownloadFormat;
  data: string | Uint8Array;
}

interface GenerationResult {
  output: string;
  status: 'generated' | 'failed' | 'not-attempted';
  jobId: string | undefined;
  error?: { code: string; message: string };
}

export interface GenerationRun {
  files: GeneratedFile[];
  manifest: GenerationManifest;
  results: GenerationResult[];
}

/** The charged calls of generating `count` documents (one job each; downloads are free). */
export function generationCalls(count: number): PlannedCalls {
  return { operationId: 'generateDocument', count };
}

function downloadData(download: Download): string | Uint8Array {
  if (download.kind === 'json') return `${JSON.stringify(download.data, null, 2)}\n`;
  if (download.kind === 'text') return download.text;
  return download.data;
}

export async function runGeneration(
  client: ComplianceApi,
  targets: readonly DriftResult[],
  options: {
    manifest: GenerationManifest;
    /** ISO timestamp recorded as generatedAt. */
    now: string;
    /**
     * Formats to write besides each target's configured ones. Every format of a document comes
     * from the same job (one charge; downloads are free), so the configured files are always
     * rewritten with it: none can be left stale or unrecorded in the manifest.
     */
    formats?: readonly DownloadFormat[];
    onProgress?: (event: { output: string; status: GenerationResult['status'] }) => void;
    signal?: AbortSignal;
  },
): Promise<GenerationRun> {
  const files: GeneratedFile[] = [];
  const results: GenerationResult[] = [];
  const entries = new Map(options.manifest.documents.map((entry) => [entry.output, entry]));
  for (const drifted of targets) {
    const { target } = drifted;
    if (options.signal?.aborted) {
      results.push({ output: target.output, status: 'not-attempted', jobId: undefined });
      continue;
    }
    let jobId: string | undefined;
    try {
      const accepted = await client.generateDocument(
        {
          framework: target.framework,
          type: target.type,
          ...(target.organisation ? { organisation: target.organisation } : {}),
          ...(target.jurisdiction ? { jurisdiction: target.jurisdiction } : {}),
          ...(target.context ? { context: target.context } : {}),
          ...(target.humanize !== undefined ? { humanize: target.humanize } : {}),
        },
        { signal: options.signal },
      );
      jobId = accepted.jobId;
      await client.waitForJob(accepted.jobId, { signal: options.signal, estimatedSeconds: accepted.estimatedSeconds });
      const written: ManifestEntry['files'] = [];
      for (const format of new Set([...target.formats, ...(options.formats ?? [])])) {
        const download = await client.downloadDocument({ jobId: accepted.jobId, format }, { signal: options.signal });
        const data = downloadData(download);
        const path = outputPath(target, format);
        files.push({ path, format, data });
        written.push({ path, format, contentHash: generatedFileHash(format, data) });
      }
      entries.set(target.output, {
        output: target.output,
        framework: target.framework,
        type: target.type,
        parameters: generationParameters(target),
        frameworkUpdatedAt: drifted.frameworkUpdatedAt ?? null,
        generatedAt: options.now,
        jobId: accepted.jobId,
        files: written,
      });
      results.push({ output: target.output, status: 'generated', jobId });
    } catch (error) {
      if (!(error instanceof ComplianceError)) throw error;
      results.push({ output: target.output, status: 'failed', jobId, error: { code: error.code, message: error.toDisplayString() } });
    }
    options.onProgress?.({ output: target.output, status: results[results.length - 1]?.status ?? 'failed' });
  }
  return { files, manifest: { ...options.manifest, documents: [...entries.values()] }, results };
}
