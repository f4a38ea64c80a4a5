/** review/reuse: when a pull request's earlier mapping may stand in for a new one. */
import { describe, expect, it } from 'vitest';
import { mappingKey, readMappingStore, reusableReports, serializeMappingStore } from '../../review/index.js';

const a = { path: 'policies/a.md', content: 'Access is reviewed quarterly.\n' };
const b = { path: 'policies/b.md', content: 'Backups are tested monthly.\n' };

describe('mappingKey', () => {
  it('is the framework, the mode and each document by content hash, whatever the order or line endings', () => {
    const key = mappingKey('hipaa-security', 'combined', [a, b]);
    expect(mappingKey('hipaa-security', 'combined', [b, { ...a, content: 'Access is reviewed quarterly.\r\n' }])).toBe(key);
    expect(mappingKey('hipaa-security', 'combined', [a, { ...b, content: 'Backups are tested weekly.\n' }])).not.toBe(key);
    expect(mappingKey('hipaa-security', 'combined', [a, { ...b, path: 'policies/c.md' }])).not.toBe(key);
    expect(mappingKey('hipaa-security', 'per-document', [a, b])).not.toBe(key);
    expect(mappingKey('gdpr', 'combined', [a, b])).not.toBe(key);
  });
});

describe('readMappingStore', () => {
  const reports = [{ source: 'combined', jobId: 'job-1' }];
  const store = serializeMappingStore(7, [{ key: 'sha256:k', framework: 'hipaa-security', reports }]);

  it('ignores the front matter, which is never mapped, and not the text', () => {
    const text = '# Access\n\nAccess is reviewed quarterly.\n';
    const key = mappingKey('hipaa-security', 'combined', [{ path: 'policies/a.md', content: `---\nsatisfies:\n  hipaa-security: [164.308(a)(4)]\n---\n\n${text}` }]);
    expect(mappingKey('hipaa-security', 'combined', [{ path: 'policies/a.md', content: `---\nowner: security\nsatisfies:\n  hipaa-security: [164.308(a)(4), 164.312(d)]\n---\n${text}` }])).toBe(key);
    expect(mappingKey('hipaa-security', 'combined', [{ path: 'policies/a.md', content: text }])).toBe(key);
    expect(mappingKey('hipaa-security', 'combined', [{ path: 'policies/a.md', content: `---\nsatisfies: {}\n---\n${text}Access is logged.\n` }])).not.toBe(key);
  });

  it('keeps only where each report is (its job id), never the report: the service is asked again', () => {
    const withReport = [{ source: 'combined', jobId: 'job-1', report: { coverage: 100 } }] as unknown as typeof reports;
    expect(JSON.parse(serializeMappingStore(7, [{ key: 'sha256:k', framework: 'hipaa-security', reports: withReport }]))).toEqual({ version: 2, pullRequest: 7, mappings: [{ key: 'sha256:k', framework: 'hipaa-security', reports }] });
  });

  it('reads the store of the same pull request and finds a mapping by key', () => {
    const read = readMappingStore(store, 7);
    expect(reusableReports(read, 'sha256:k')).toEqual(reports);
    expect(reusableReports(read, 'sha256:other')).toBeUndefined();
  });

  it('ignores another pull request\'s store, a broken file and no file: the run maps afresh', () => {
    expect(readMappingStore(store, 8)).toBeUndefined();
    expect(readMappingStore('{"version": 2', 7)).toBeUndefined();
    expect(readMappingStore(JSON.stringify({ version: 2, pullRequest: 7, mappings: [{ key: 'sha256:k', framework: 'x', reports: [] }] }), 7)).toBeUndefined();
    // A store of the version that kept the reports themselves: not read.
    expect(readMappingStore(JSON.stringify({ version: 1, pullRequest: 7, mappings: [{ key: 'sha256:k', framework: 'x', reports: [{ source: 'combined', jobId: 'j', report: { coverage: 100 } }] }] }), 7)).toBeUndefined();
    expect(readMappingStore(undefined, 7)).toBeUndefined();
  });
});
