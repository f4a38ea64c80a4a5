import { describe, expect, it } from 'vitest';
import {
  detectDrift,
  driftInputPaths,
  emptyManifest,
  generatedFileHash,
  generationParameters,
  parseManifest,
  planGeneration,
  serializeManifest,
  type GenerateTarget,
  type GenerationManifest,
} from '../../review/index.js';
import { manifestShape } from '../../review/drift.js';

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

describe('drift in detail', () => {
  it('lists the files drift reads, one per format', () => {
    expect(driftInputPaths([target, { ...target, output: 'b', formats: ['json'] }])).toEqual(['generated/nist-policy.md', 'generated/nist-policy.pdf', 'b.json']);
  });

  it('hashes text formats by their text, line endings aside, and pdf or docx by their bytes, given as text or bytes alike', () => {
    const bytes = new TextEncoder().encode('a\nb');
    expect(generatedFileHash('md', bytes)).toBe(generatedFileHash('md', 'a\r\nb'));
    expect(generatedFileHash('pdf', 'a\nb')).toBe(generatedFileHash('pdf', bytes));
    expect(generatedFileHash('pdf', 'a\r\nb')).not.toBe(generatedFileHash('pdf', 'a\nb'));
  });

  it('counts a file it never generated as edited, and a framework date it never recorded as an update', () => {
    expect(drift({ manifest: emptyManifest() })).toMatchObject({ status: 'edited-by-hand', editedFiles: ['generated/nist-policy.md', 'generated/nist-policy.pdf'], reasons: ['missing'] });
    expect(drift({ manifest: manifestFor(target, null) })?.reasons).toEqual(['framework-updated']);
    expect(drift({ manifest: manifestFor(target, null), frameworkUpdatedAt: {} })?.reasons).toEqual([]);
  });

  it('compares parameters whatever their key order, and lists entries no longer configured as orphaned', () => {
    const manifest = manifestFor(target, '2026-01-15');
    const entry = manifest.documents[0]!;
    const reordered = { ...entry, parameters: Object.fromEntries(Object.entries(entry.parameters).reverse().map(([key, value]) => [key, value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).reverse()) : value])) };
    expect(JSON.stringify(reordered.parameters)).not.toBe(JSON.stringify(entry.parameters));
    expect(drift({ manifest: { ...manifest, documents: [reordered] } })?.reasons).toEqual([]);
    const old = { ...entry, output: 'generated/old' };
    const result = detectDrift({ manifest: { ...manifest, documents: [old, entry] }, targets: [target], files, frameworkUpdatedAt: { 'nist-csf-2': '2026-01-15' } });
    expect(result.orphaned).toEqual([old]);
  });

  it('plans with reasons: up to date, edited by hand, or not configured; a named output only', () => {
    const upToDate = drift({})!;
    const drifted = { ...drift({ frameworkUpdatedAt: { 'nist-csf-2': '2026-04-01' } })!, output: 'generated/other' };
    const edited = { ...drift({ files: { 'generated/nist-policy.md': 'mine', 'generated/nist-policy.pdf': 'mine too' } })!, output: 'generated/edited' };
    expect(planGeneration([upToDate, drifted, edited])).toEqual({
      generate: [drifted],
      skipped: [
        { output: 'generated/nist-policy', reason: 'up to date' },
        { output: 'generated/edited', reason: 'edited by hand (generated/nist-policy.md, generated/nist-policy.pdf): use --force to overwrite' },
      ],
    });
    expect(planGeneration([upToDate, drifted], { only: ['generated/other'] })).toEqual({ generate: [drifted], skipped: [] });
  });
});

describe('manifest in detail', () => {
  it('reads a blank file as empty, and names the file, the field and the fix of a bad one', () => {
    expect(parseManifest(' \n')).toEqual({ schemaVersion: 1, documents: [] });
    expect(parseManifest(undefined)).toEqual({ schemaVersion: 1, documents: [] });
    expect(() => parseManifest('{oops')).toThrowError(/^\.compliance\/generated\.json is not valid JSON: \S/);
    const field = (documents: unknown) => {
      try {
        parseManifest(JSON.stringify({ schemaVersion: 1, documents }));
      } catch (error) {
        return { message: (error as Error).message, hint: (error as { hint?: string }).hint };
      }
      throw new Error('expected an error');
    };
    expect(field([{ output: 3 }])).toEqual({
      message: '.compliance/generated.json: documents.0.output Invalid input: expected string, received number',
      hint: 'Restore it from version control, or delete it and regenerate with --force.',
    });
    const entry = manifestFor(target, null).documents[0]!;
    expect(field([{ ...entry, files: [{ path: 'a.md', format: 'md' }] }]).message).toBe('.compliance/generated.json: documents.0.files.0.contentHash Invalid input: expected string, received undefined');
  });

  it('writes documents sorted by output, leaving the manifest given as it was', () => {
    const entry = manifestFor(target, null).documents[0]!;
    const manifest = { schemaVersion: 1 as const, documents: [{ ...entry, output: 'z' }, { ...entry, output: 'a' }] };
    const written = JSON.parse(serializeManifest(manifest)) as GenerationManifest;
    expect(written.documents.map((document) => document.output)).toEqual(['a', 'z']);
    expect(manifest.documents.map((document) => document.output)).toEqual(['z', 'a']);
  });
});


// The readers use the manifest's schema built once per process; built fresh here, so a change to its shape is seen.
describe('manifestShape', () => {
  const entry = { output: 'generated/a', framework: 'hipaa-security', type: 'policy', parameters: {}, frameworkUpdatedAt: null, generatedAt: '2026-01-05T00:00:00Z', files: [{ path: 'generated/a.md', format: 'md', contentHash: 'h' }] };
  it('takes a manifest whose documents and files hold every field, and refuses one that lacks one', () => {
    expect(manifestShape().safeParse({ schemaVersion: 1, documents: [entry] }).success).toBe(true);
    expect(manifestShape().safeParse({ schemaVersion: 1, documents: [{ ...entry, output: undefined }] }).success).toBe(false);
    expect(manifestShape().safeParse({ schemaVersion: 1, documents: [{ ...entry, files: [{ path: 'generated/a.md', format: 'md' }] }] }).success).toBe(false);
  });
});

describe('generatedFileHash', () => {
  it('hashes text formats like library text, whatever the line endings or the form given, and other formats as bytes', () => {
    expect(generatedFileHash('md', 'a\r\nb\n')).toBe(generatedFileHash('md', 'a\nb\n'));
    expect(generatedFileHash('md', new TextEncoder().encode('a\nb\n'))).toBe(generatedFileHash('md', 'a\nb\n'));
    expect(generatedFileHash('pdf', 'a\r\nb')).not.toBe(generatedFileHash('pdf', 'a\nb'));
    expect(generatedFileHash('pdf', 'a\nb')).toBe(generatedFileHash('pdf', new TextEncoder().encode('a\nb')));
  });
});

describe('planGeneration', () => {
  it('names every hand-edited file of a document it leaves alone', () => {
    const edited = { output: 'generated/a', target: {} as never, status: 'edited-by-hand' as const, reasons: [], editedFiles: ['generated/a.md', 'generated/a.pdf'], missingFiles: [], frameworkUpdatedAt: undefined, generatedAt: undefined };
    expect(planGeneration([edited]).skipped).toEqual([{ output: 'generated/a', reason: 'edited by hand (generated/a.md, generated/a.pdf): use --force to overwrite' }]);
  });
});
