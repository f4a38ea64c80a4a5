/**
 * Jobs read tolerantly (api/normalize/job.ts): every name the adapter accepts for a job's id,
 * status, progress, estimate, links and failure is read on its own; every status word maps to the
 * one it means; and what it cannot read fails naming what it looked for. A status misread waits on
 * a finished job, or downloads from an unfinished one.
 */
import { describe, expect, it } from 'vitest';
import { normalizeJobAccepted, normalizeJobStatus } from '../../api/normalize/index.js';
import { JOB_ID, at } from './helpers.js';

const GET_JOB = { operationId: 'getJob', input: {} };
const status = (fields: Record<string, unknown>) => normalizeJobStatus({ jobId: JOB_ID, status: 'running', ...fields }, GET_JOB);
const failed = (fields: Record<string, unknown>) => status({ status: 'failed', ...fields }).error;
const ACCEPTED = { operationId: 'generateDocument', input: {} };
const accepted = (fields: Record<string, unknown>) => normalizeJobAccepted({ jobId: JOB_ID, ...fields }, ACCEPTED);

const JOB_ID_NAMES = ['jobId', 'job_id', 'job.id', 'job.jobId', 'id'];

describe('a job\'s status', () => {
  it.each([
    ['queued', ['queued', 'pending', 'waiting', 'accepted', 'created', 'submitted']],
    ['running', ['running', 'processing', 'in_progress', 'started', 'active', 'working']],
    ['completed', ['completed', 'complete', 'done', 'succeeded', 'success', 'finished', 'ready']],
    ['failed', ['failed', 'failure', 'error', 'errored', 'cancelled', 'canceled']],
  ])('reads %s from each of its words', (meant, words) => {
    for (const word of words) expect(normalizeJobStatus({ jobId: JOB_ID, status: word }, GET_JOB).status).toBe(meant);
  });

  it.each(['status', 'state', 'job.status', 'job.state'])('reads the status from %s', (name) => {
    expect(normalizeJobStatus({ jobId: JOB_ID, ...at(name, 'done') }, GET_JOB).status).toBe('completed');
  });

  it('fails on an answer that is no object, without a status, or with one it does not know, naming where it looked', () => {
    expect(() => normalizeJobStatus(1, GET_JOB)).toThrowError('getJob: unexpected response: no job status (looked for an object); got number');
    expect(() => normalizeJobStatus({ jobId: JOB_ID }, GET_JOB)).toThrowError('no job status (looked for status, state, job.status, job.state); keys seen: jobId');
    expect(() => normalizeJobStatus({ status: 'paused' }, GET_JOB)).toThrowError('no known job status (got "paused") (looked for status, state, job.status, job.state)');
  });

  it.each(JOB_ID_NAMES)('reads the job id from %s', (name) => {
    expect(normalizeJobStatus({ status: 'queued', ...at(name, 'job_9') }, GET_JOB).jobId).toBe('job_9');
  });

  it('fails without a job id in the answer or the request, naming where it looked', () => {
    expect(() => normalizeJobStatus({ status: 'queued' }, GET_JOB)).toThrowError('no job id (looked for jobId, job_id, job.id, job.jobId, id); keys seen: status');
    expect(() => normalizeJobStatus({ status: 'queued' }, { operationId: 'getJob' })).toThrowError('no job id (looked for jobId, job_id, job.id, job.jobId, id)');
  });

  it.each(['progress', 'percentComplete', 'percent', 'progressPercent'])('reads the progress from %s', (name) => {
    expect(status({ [name]: 0.25 }).progress).toBe(0.25);
  });

  it.each([
    [1, 1],
    [0.4, 0.4],
    [40, 0.4],
    [250, 1],
    [-1, 0],
  ])('a progress of %s reads as %s', (value, progress) => {
    expect(status({ progress: value }).progress).toBe(progress);
  });

  it('has no progress, estimate, document or error while running without them', () => {
    expect(status({})).toStrictEqual({ jobId: JOB_ID, status: 'running' });
  });

  it.each(['estimatedSeconds', 'estimated_seconds', 'etaSeconds', 'eta'])('reads the estimate from %s', (name) => {
    expect(status({ [name]: 12 }).estimatedSeconds).toBe(12);
  });

  it.each(['documentId', 'document_id', 'libraryDocumentId', 'document.id'])('reads the document id from %s', (name) => {
    expect(status(at(name, 'doc_1')).documentId).toBe('doc_1');
  });

  it.each(['error', 'failure', 'failureReason', 'failure_reason', 'reason', 'errorMessage', 'error_message', 'message', 'detail'])('reads a failure\'s reason from %s, as text or an object', (name) => {
    expect(failed({ [name]: 'Parser crashed' })).toEqual({ code: 'job_failed', message: 'Parser crashed' });
    expect(failed({ [name]: { code: 'bad_input', message: 'No text' } })).toEqual({ code: 'bad_input', message: 'No text' });
  });

  it.each(['message', 'reason', 'detail', 'description', 'text'])('reads a failure object\'s message from %s', (name) => {
    expect(failed({ error: { [name]: 'No text' } })).toEqual({ code: 'job_failed', message: 'No text' });
  });

  it.each(['code', 'type', 'kind'])('reads a failure object\'s code from %s, and shows it as the message when there is no other', (name) => {
    expect(failed({ error: { [name]: 'bad_input' } })).toEqual({ code: 'bad_input', message: 'bad_input' });
  });

  it.each(['errorCode', 'error_code', 'failureCode', 'code'])('reads a text failure\'s code from %s', (name) => {
    expect(failed({ reason: 'Timeout', [name]: 'timeout' })).toEqual({ code: 'timeout', message: 'Timeout' });
  });

  it('reads the failure of a job nested in job, skips an empty reason and an object without one', () => {
    expect(normalizeJobStatus({ job: { jobId: JOB_ID, status: 'failed', error: 'Nested' } }, GET_JOB).error).toEqual({ code: 'job_failed', message: 'Nested' });
    expect(failed({ error: '', failure: { note: 'x' }, reason: 'Later' })).toEqual({ code: 'job_failed', message: 'Later' });
    expect(failed({ error: 7 })).toEqual({ code: 'job_failed', message: '7' });
  });

  it('gives no failure for a job that did not fail, whatever it says', () => {
    expect(status({ status: 'completed', error: 'stale' }).error).toBeUndefined();
  });
});

describe('a job accepted (202)', () => {
  it('fails on an answer that is no object, or without a job id, naming where it looked', () => {
    expect(() => normalizeJobAccepted('job', ACCEPTED)).toThrowError('generateDocument: unexpected response: no job (looked for an object); got string');
    expect(() => normalizeJobAccepted({ status: 'queued' }, ACCEPTED)).toThrowError('no job id (looked for jobId, job_id, job.id, job.jobId, id); keys seen: status');
  });

  it.each(JOB_ID_NAMES)('reads the job id from %s', (name) => {
    expect(normalizeJobAccepted(at(name, 'job_9'), ACCEPTED).jobId).toBe('job_9');
  });

  it('reads the status, queued unless it says otherwise', () => {
    expect(accepted({ state: 'processing' }).status).toBe('running');
    expect(accepted({}).status).toBe('queued');
  });

  it.each(['poll', 'pollUrl', 'poll_url', 'statusUrl', 'links.poll', 'links.status'])('reads where to poll from %s, else the job\'s own path', (name) => {
    expect(accepted(at(name, '/p/1')).poll).toBe('/p/1');
    expect(accepted({}).poll).toBe(`/jobs/${JOB_ID}`);
  });

  it.each(['documentUrl', 'downloadUrl', 'download', 'links.document', 'links.download'])('reads where to download from document as text, else %s', (name) => {
    expect(accepted({ document: '/d/1' }).document).toBe('/d/1');
    expect(accepted(at(name, '/d/2')).document).toBe('/d/2');
    expect(accepted({ document: { id: 'doc_1' }, ...at(name, '/d/3') }).document).toBe('/d/3');
  });

  it.each(['estimatedSeconds', 'estimated_seconds', 'etaSeconds', 'eta'])('reads the estimate from %s, else 0', (name) => {
    expect(accepted({ [name]: 8 }).estimatedSeconds).toBe(8);
    expect(accepted({}).estimatedSeconds).toBe(0);
  });

  it.each(['documentId', 'document_id', 'libraryDocumentId', 'document.id'])('reads the document id from %s', (name) => {
    expect(accepted(at(name, 'doc_1')).documentId).toBe('doc_1');
  });

  it.each(['version', 'document.version'])('reads the version from %s', (name) => {
    expect(accepted(at(name, 3)).version).toBe(3);
  });
});
