import { describe, expect, it } from 'vitest';
import {
  detectDrift,
  emptyManifest,
  generatedFileHash,
  generationParameters,
  parseManifest,
  planGeneration,
  serializeManifest,
  type GenerateTarget,
  type GenerationManifest,
} from '../../review/index.js';

const target: GenerateTarget = {
  type: 'policy',
  framework: 'nist-csf-2',
  organisation: { name: 'Northwind Health Analytics', country: 'US' },
  output: 'generated/nist-policy',
  formats: ['md', 'pdf'],
};
const md = '# Policy\n\nGenerated text.\n';
const pdf = new Uint8Array([37, 80, 68, 70, 1, 2, 3]);

function manifestFor(t: GenerateTarget, frameworkUpdatedAt: string | null): GenerationManifest {
  return {
    schemaVersion: 1,
    documents: [{
      output: t.output, framework: t.framework, type: t.type, parameters: generationParameters(t), frameworkUpdatedAt,
      generatedAt: '2026-03-01T00:00:00Z',
      files: [
        { path: 'generated/nist-policy.md', format: 'md', contentHash: generatedFileHash('md', md) },
        { path: 'generated/nist-policy.pdf', format: 'pdf', contentHash: generatedFileHash('pdf', pdf) },
      ],
    }],
  };
}
const files = { 'generated/nist-policy.md': md, 'generated/nist-policy.pdf': pdf };
const drift = (overrides: Partial<Parameters<typeof detectDrift>[0]>) =>
  detectDrift({ manifest: manifestFor(target, '2026-01-15'), targets: [target], files, frameworkUpdatedAt: { 'nist-csf-2': '2026-01-15' }, ...overrides }).documents[0];

describe('detectDrift', () => {
  it('is up to date when nothing changed (line endings do not count)', () => {
    expect(drift({})).toMatchObject({ status: 'up-to-date', reasons: [] });
    expect(drift({ files: { ...files, 'generated/nist-policy.md': md.replace(/\n/g, '\r\n') } })?.status).toBe('up-to-date');
  });

  it('names each reason for drift', () => {
    expect(drift({ frameworkUpdatedAt: { 'nist-csf-2': '2026-04-01' } })?.reasons).toEqual(['framework-updated']);
    expect(drift({ targets: [{ ...target, organisation: { name: 'Northwind', country: 'US' } }] })?.reasons).toEqual(['parameters-changed']);
    expect(drift({ files: { 'generated/nist-policy.md': md } })).toMatchObject({ status: 'drifted', reasons: ['missing'], missingFiles: ['generated/nist-policy.pdf'] });
    expect(drift({ manifest: emptyManifest(), files: {} })).toMatchObject({ status: 'drifted', reasons: ['missing'] });
  });

  it('reports a hand edit, which planGeneration leaves alone without force', () => {
    const edited = drift({ files: { ...files, 'generated/nist-policy.md': `${md}Our own paragraph.\n` }, frameworkUpdatedAt: { 'nist-csf-2': '2026-04-01' } });
    expect(edited).toMatchObject({ status: 'edited-by-hand', editedFiles: ['generated/nist-policy.md'], reasons: ['framework-updated'] });
    if (!edited) throw new Error('expected a result');
    expect(planGeneration([edited])).toMatchObject({ generate: [], skipped: [{ output: 'generated/nist-policy', reason: expect.stringContaining('--force') }] });
    expect(planGeneration([edited], { force: true }).generate).toHaveLength(1);
  });

  it('plans only drifted documents unless named', () => {
    const upToDate = drift({});
    if (!upToDate) throw new Error('expected a result');
    expect(planGeneration([upToDate]).generate).toEqual([]);
    expect(planGeneration([upToDate], { only: ['generated/nist-policy'] }).generate).toHaveLength(1);
    expect(planGeneration([upToDate], { only: ['nope'] }).skipped).toContainEqual({ output: 'nope', reason: 'not in compliance.yml generate' });
  });
});

describe('manifest', () => {
  it('round-trips and rejects garbage', () => {
    const manifest = manifestFor(target, null);
    expect(parseManifest(serializeManifest(manifest))).toEqual(manifest);
    expect(parseManifest(undefined)).toEqual(emptyManifest());
    expect(() => parseManifest('{"schemaVersion": 2, "documents": []}')).toThrowError(expect.objectContaining({ code: 'invalid_manifest' }));
    expect(() => parseManifest('{oops')).toThrowError(expect.objectContaining({ code: 'invalid_manifest' }));
  });
});
