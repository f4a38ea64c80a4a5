/**
 * What each kind of job does when it runs. Workers are synchronous and run inside the job's
 * settling transaction, so a result, the library's indexing and a refund commit together. Mapping,
 * too heavy for the event loop (about a second for the largest document), is prepared at admission
 * in the mapping pool's worker threads; its completion only stamps the prepared result.
 */
import type { KeyMode } from '../../api/schemas/common.js';
import { findFramework } from '../catalogue/index.js';
import type { DocumentModel } from '../documentModel.js';
import { generateDocumentModel, type GenerationInput } from '../generation/index.js';
import type { MappingResult, MapTextInput } from '../mapping/index.js';
import { MappingLimit } from '../mapping/mappingPool.js';
import type { WorkerPool } from '../threads/workerPool.js';
import { documentDeleted, JobFailure, type JobWorker } from './jobs.js';
import type { JobKind, JobRecord } from './jobStore.js';
import { LibraryError, type Library } from '../library/index.js';
import type { IndexMaintenance } from './indexMaintenance.js';

/** The stored input of a generation job (the validated request, framework resolved to a slug). */
export interface GenerationJobInput {
  mode: KeyMode;
  frameworkSlug: string;
  type: string;
  organisation?: GenerationInput['organisation'];
  company?: string;
  sector?: string;
  jurisdiction?: string;
  context?: string;
  humanize?: boolean;
}

export interface GenerationJobResult {
  model: DocumentModel;
  framework: { slug: string; name: string };
  type: string;
  mode: KeyMode;
  generatedAt: string;
}

export interface MappingJobInput {
  mode: KeyMode;
  frameworkSlug: string;
  text: string;
  title?: string;
}

export type MappingJobResult = MappingResult & { jobId: string; mode: KeyMode; generatedAt: string };

/** A mapping's prepared work: the result, and what completion needs of the input (never the text). */
interface PreparedMapping {
  result: MappingResult;
  mode: KeyMode;
}

export interface LibraryJobInput {
  mode: KeyMode;
  documentId: string;
}

function frameworkOf(slug: string) {
  const framework = findFramework(slug);
  if (!framework) throw new JobFailure('framework_not_found', `The framework ${slug} is no longer in the catalogue.`);
  return framework;
}

/** What the library jobs write to: the workers need no more of the services (and do not import them). */
interface WorkerDependencies {
  library: Library;
  indexMaintenance: IndexMaintenance;
  /** Runs mapText in worker threads. */
  mapping: Pick<WorkerPool<MapTextInput, MappingResult>, 'run' | 'pending'>;
}

export function createJobWorkers(services: WorkerDependencies): Record<JobKind, JobWorker> {
  const library: JobWorker = {
    complete(job, now) {
      const input = job.input as LibraryJobInput;
      let document;
      try {
        document = services.library.completeWork(job.keyHash, input.documentId, { mode: input.mode, now: new Date(now).toISOString() });
      } catch (error) {
        // A delete fails the document's open jobs itself; this covers any that reach here anyway.
        if (error instanceof LibraryError && error.code === 'document_not_found') throw documentDeleted(input.documentId);
        throw error;
      }
      services.indexMaintenance.written(job.keyHash);
      return { documentId: document.id, version: document.version };
    },
    failed(job: JobRecord) {
      const input = job.input as LibraryJobInput;
      services.library.failWork(job.keyHash, input.documentId);
    },
  };
  return {
    generation: {
      complete(job, now): GenerationJobResult {
        const input = job.input as GenerationJobInput;
        const { mode, frameworkSlug, type, ...personalisation } = input;
        const framework = frameworkOf(frameworkSlug);
        const model = generateDocumentModel({
          framework,
          type,
          mode,
          // The date of admission, so the same request gives the same document all day.
          generatedOn: new Date(job.createdAt).toISOString().slice(0, 10),
          // Stored as JSON: fields the request left out are absent, not undefined.
          ...personalisation,
        });
        return { model, framework: { slug: framework.slug, name: framework.name }, type: input.type, mode: input.mode, generatedAt: new Date(now).toISOString() };
      },
    },
    mapping: {
      async prepare(job): Promise<PreparedMapping> {
        const input = job.input as MappingJobInput;
        const framework = frameworkOf(input.frameworkSlug);
        if (!framework.controls?.length) throw new JobFailure('framework_not_verified', `${framework.name} has no control set to map against.`);
        try {
          const result = await services.mapping.run(
            {
              text: input.text,
              framework: { slug: framework.slug, name: framework.name, version: framework.version, controls: framework.controls },
              ...(input.title ? { title: input.title } : {}),
            },
            job.keyHash,
          );
          return { result, mode: input.mode };
        } catch (error) {
          if (error instanceof MappingLimit) throw new JobFailure('mapping_too_large', `${error.message} Split the document and map the parts.`);
          throw new JobFailure('processing_failed', `Mapping failed in the sandbox: ${error instanceof Error ? error.message : String(error)}`);
        }
      },
      stored: (input) => ({ ...(input as MappingJobInput), text: undefined }),
      complete(job, now, prepared): MappingJobResult {
        // From the prepared work, not job.input: reading that back parses up to 2,000,000 characters
        // of stored JSON on the event loop, which every other key's requests would wait for.
        const { result, mode } = prepared as PreparedMapping;
        return { ...result, jobId: job.id, mode, generatedAt: new Date(now).toISOString() };
      },
    },
    library_ingest: library,
    library_refresh: library,
  };
}
