import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../sandbox/formats/index.js';
import { BODY_SENTENCE, samplePolicy, WATERMARK } from './sampleModels.js';

describe('renderMarkdown', () => {
  const markdown = renderMarkdown(samplePolicy());

  it('has the title, subtitle, watermark quote and meta list at the top', () => {
    const lines = markdown.split('\n');
    expect(lines[0]).toBe('# Access Control Policy \u2014 Acme Health');
    expect(markdown).toContain('_Policy document generated for NIST CSF 2.0_');
    expect(markdown).toContain(`> **${WATERMARK}**`);
    expect(markdown).toContain('- **Framework:** NIST Cybersecurity Framework 2.0');
    expect(markdown).toContain('- **Generated:** 2025-03-01T10:00:00Z');
  });

  it('renders sections, paragraphs, bullets and GFM tables with escaped pipes and HTML', () => {
    expect(markdown).toContain('## Purpose & scope');
    expect(markdown).toContain(BODY_SENTENCE);
    expect(markdown).toContain('Acme \\<Health\\> Ltd');
    expect(markdown).toContain('- Source code | CI pipelines');
    expect(markdown).toContain('| Control | Title | Owner |\n| --- | --- | --- |\n| PR.AA-01 |');
    expect(markdown.endsWith('\n')).toBe(true);
  });

  it('keeps text that looks like markdown syntax as literal text', () => {
    const model = {
      title: 'T',
      meta: [],
      sections: [{ heading: 'H', paragraphs: ['# not a heading', '1. not a list\n- nor this', 'a *b* [c](d)'], table: [['a|b', 'line\nbreak'], ['x']] }],
    };
    const output = renderMarkdown(model);
    expect(output).toContain('\\# not a heading');
    expect(output).toContain('1\\. not a list  \n\\- nor this');
    expect(output).toContain('a \\*b\\* \\[c\\](d)');
    expect(output).toContain('| a\\|b | line<br>break |\n| --- | --- |\n| x |   |');
    expect(output).not.toContain('> ');
  });
});
