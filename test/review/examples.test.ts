import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_CONFIG, frameworkDocuments, parseConfig, selectDocumentPaths } from '../../review/index.js';

const examples = join(import.meta.dirname, '../../examples');

describe('EXAMPLE_CONFIG', () => {
  it('parses and uses every section', () => {
    const config = parseConfig(EXAMPLE_CONFIG);
    expect(config.documents).toHaveLength(2);
    expect(config.frameworks[0]).toMatchObject({ framework: 'nist-csf-2', mode: 'combined' });
    expect(config.waivers).toHaveLength(1);
    expect(config.generate[0]?.formats).toEqual(['md', 'pdf']);
    expect(config.review.cadence).toBe('quarterly');
  });
});

describe('examples/', () => {
  const config = parseConfig(readFileSync(join(examples, 'compliance.yml'), 'utf8'), 'examples/compliance.yml');
  const files = readdirSync(join(examples, 'policies')).map((name) => ({
    path: `policies/${name}`,
    content: readFileSync(join(examples, 'policies', name), 'utf8'),
  }));

  it('has a compliance.yml whose globs select all eight policies for the framework', () => {
    const selected = selectDocumentPaths(config.documents, files.map((file) => file.path));
    expect(selected).toHaveLength(8);
    const framework = config.frameworks[0];
    if (!framework) throw new Error('expected a framework');
    expect(framework.framework).toBe('hipaa-security');
    expect(frameworkDocuments(framework, config.documents, files)).toHaveLength(8);
    expect(config.waivers).toHaveLength(1);
  });

  it('has policies of varied, library-sized lengths', () => {
    for (const file of files) {
      expect(file.content.length, file.path).toBeGreaterThan(2_000);
      expect(file.content.length, file.path).toBeLessThan(12_000);
    }
  });

  it('keeps the deliberate gap: nothing on security awareness and training', () => {
    for (const file of files) expect(file.content, file.path).not.toMatch(/training|awareness|phishing|reminder/i);
  });
});
