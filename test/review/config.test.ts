import { describe, expect, it } from 'vitest';
import { ConfigError, givenDocumentsHead, parseConfig, repositoryTag } from '../../review/index.js';

function issuesOf(text: string): string[] {
  try {
    parseConfig(text, 'compliance.yml');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message.split('\n');
  }
  throw new Error('expected a ConfigError');
}

const minimal = `documents:
  - paths: ["policies/*.md"]
`;

describe('givenDocumentsHead', () => {
  it('is the compliance.yml that parseConfig reads for a set of every file given, defaults and all', () => {
    expect(givenDocumentsHead().config).toEqual(parseConfig('documents:\n  - name: given\n    paths: ["**"]\n'));
    // No compliance.yml text was read (so none can be unchanged since a base), and the path the gate names.
    expect(givenDocumentsHead()).toMatchObject({ text: '', path: 'compliance.yml' });
  });
});

describe('parseConfig', () => {
  it('applies defaults to a minimal file', () => {
    const config = parseConfig(minimal);
    expect(config.frameworks).toEqual([]);
    expect(config.gapIssues).toEqual({ labels: ['compliance-gap'], assignees: [], titlePrefix: '[compliance]', closeResolved: true, maxNewPerRun: 10 });
    expect(config.review.cadence).toBe('none');
    expect(config.documents[0]?.tags).toEqual([]);
  });

  it('names the line and the key of a bad threshold', () => {
    const text = `${minimal}frameworks:
  - framework: nist-csf-2
    threshold: 120
`;
    expect(issuesOf(text)).toEqual(['compliance.yml:5 frameworks[0].threshold: must be a number between 0 and 100']);
  });

  it('reports a threshold written as text', () => {
    const text = `${minimal}frameworks:\n  - framework: x\n    threshold: "high"\n`;
    expect(issuesOf(text)).toEqual(['compliance.yml:5 frameworks[0].threshold: must be a number between 0 and 100']);
  });

  it('rejects unknown keys at their line, with a suggestion', () => {
    const text = `documents:
  - paths: ["a/*.md"]
    catgory: Policies
frameworkz: []
`;
    expect(issuesOf(text)).toEqual([
      'compliance.yml:3 documents[0].catgory: unknown key (did you mean "category"?)',
      'compliance.yml:4 frameworkz: unknown key (did you mean "frameworks"?)',
    ]);
  });

  it('shows none of a YAML file that is no compliance configuration (issue 37.9), but helps a misspelt one', () => {
    const other = () => parseConfig('Name: node\nUmask: "0022"\nPid: 42\n', 'status.yml');
    expect(other).toThrow(/^status\.yml: is not a compliance configuration: none of its top-level keys is repository, documents, .* \(its content is not shown\)$/);
    expect(other).not.toThrow(/Umask|Pid/);
    expect(() => parseConfig('document:\n  - paths: ["*.md"]\n', 'compliance.yml')).toThrow(/document: unknown key \(did you mean "documents"\?\)/);
  });

  it('says a missing key is required, pointing at its parent', () => {
    const text = `${minimal}waivers:
  - framework: nist-csf-2
    control: PR.AT-01
    owner: someone
    expires: 2026-02-30
`;
    expect(issuesOf(text)).toEqual([
      'compliance.yml:4 waivers[0].reason: is required',
      'compliance.yml:7 waivers[0].expires: is not a real calendar date',
    ]);
  });

  it('points an explicit key without a value at its key', () => {
    expect(issuesOf(`${minimal}? waivers\n`)).toEqual(['compliance.yml:3 waivers: must be a list']);
  });

  it('reports YAML syntax errors with their line', () => {
    const lines = issuesOf('documents:\n  - paths: [a\n  bad: : x\n');
    expect(lines[0]).toMatch(/^compliance\.yml:\d+: /);
  });

  it('refuses an empty file and a reserved repo: tag', () => {
    expect(issuesOf('')[0]).toContain('is empty');
    expect(issuesOf('documents:\n  - paths: ["*.md"]\n    tags: ["repo:x/y"]\n')).toEqual([
      'compliance.yml:3 documents[0].tags[0]: tags starting with "repo:" are reserved: sync adds the repository tag itself',
    ]);
  });

  it('checks group references and duplicates across sections', () => {
    const text = `documents:
  - name: policies
    paths: ["policies/*.md"]
frameworks:
  - framework: nist-csf-2
    threshold: 50
    documents: [polices, "other/*.md"]
generate:
  - { type: policy, framework: x, output: out/a }
  - { type: policy, framework: y, output: out/a.md }
`;
    expect(issuesOf(text)).toEqual([
      'compliance.yml:7 frameworks[0].documents[0]: no document group named "polices" (groups: policies)',
      'compliance.yml:10 generate[1].output: give the path without an extension: each format adds its own',
    ]);
  });

  it('keeps dates as text and accepts single values for lists', () => {
    const config = parseConfig(`repository: Acme/Policies
documents:
  - paths: "docs/**/*.md"
    tags: security
waivers:
  - { framework: f, control: C-1, reason: r, owner: o, expires: 2026-12-31 }
`);
    expect(config.documents[0]?.paths).toEqual(['docs/**/*.md']);
    expect(config.documents[0]?.tags).toEqual(['security']);
    expect(config.waivers[0]?.expires).toBe('2026-12-31');
    expect(repositoryTag(config.repository ?? '')).toBe('repo:acme/policies');
  });

  it('states the exact line of a YAML syntax error, an empty file, a text or a list, and a file that aliases too much', () => {
    expect(issuesOf('documents:\n  - paths: [a\n  bad: : x\n')[0]).toBe('compliance.yml:3: Flow sequence in block collection must be sufficiently indented and end with a ]');
    expect(issuesOf('# only a comment\n')).toEqual(['compliance.yml: is empty: run `compliance init` for a commented example']);
    expect(issuesOf('hello')).toEqual(['compliance.yml:1: Invalid input: expected object, received string']);
    expect(issuesOf('- documents')).toEqual(['compliance.yml:1: Invalid input: expected object, received array']);
    const aliases = 'a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n';
    expect(issuesOf(aliases)).toEqual([expect.stringMatching(/^compliance\.yml: cannot be read: .+; write the values out instead of repeating YAML aliases$/)]);
  });

  it('names an unknown key beside known ones without a guess when none is close', () => {
    expect(issuesOf(`${minimal}zzzzzzzz: 1\n`)).toEqual(['compliance.yml:3 zzzzzzzz: unknown key']);
  });

  it('refuses an unclosed brace in a glob and strips the @ of an assignee', () => {
    expect(issuesOf('documents:\n  - paths: ["a/{b,c"]\n')).toEqual(['compliance.yml:2 documents[0].paths[0]: unclosed "{" in glob a/{b,c']);
    expect(parseConfig(`${minimal}gapIssues:\n  assignees: ["@alice", bob]\n`).gapIssues.assignees).toEqual(['alice', 'bob']);
  });

  it('names the formats a generated document may have', () => {
    const entry = (formats: string) => `${minimal}generate:\n  - { type: policy, framework: x, output: out/a, formats: ${formats} }\n`;
    expect(issuesOf(entry('[txt]'))).toEqual(['compliance.yml:4 generate[0].formats[0]: must be one of: json, md, pdf, docx']);
    expect(issuesOf(entry('[]'))).toEqual(['compliance.yml:4 generate[0].formats: must list at least one format']);
  });

  it('refuses a group name, framework, waiver or output listed twice, across case', () => {
    const text = `documents:
  - { name: policies, paths: ["policies/*.md"] }
  - { name: policies, paths: ["other/*.md"] }
frameworks:
  - { framework: nist-csf-2, threshold: 50 }
  - { framework: iso-27001, threshold: 50 }
  - { framework: NIST-CSF-2, threshold: 60 }
waivers:
  - { framework: f, control: C-1, reason: r, owner: o, expires: 2026-12-31 }
  - { framework: f, control: C-2, reason: r, owner: o, expires: 2026-12-31 }
  - { framework: F, control: c-1, reason: r, owner: o, expires: 2026-12-31 }
generate:
  - { type: policy, framework: x, output: out/a }
  - { type: policy, framework: y, output: out/b }
  - { type: policy, framework: y, output: out/a }
`;
    expect(issuesOf(text)).toEqual([
      'compliance.yml:3 documents[1].name: duplicate group name "policies"',
      'compliance.yml:7 frameworks[2].framework: "NIST-CSF-2" is already listed at frameworks[0]: each entry is mapped and charged, so list it once',
      'compliance.yml:11 waivers[2].control: a waiver for F c-1 is already listed',
      'compliance.yml:15 generate[2].output: another entry already writes out/a',
    ]);
  });

  it('reads a bare word among a framework\'s documents as a group, and a path or glob as files', () => {
    const groups = 'documents:\n  - { name: a, paths: ["a/*.md"] }\n  - { name: b, paths: ["b/*.md"] }\n';
    expect(issuesOf(`${groups}frameworks:\n  - { framework: x, threshold: 1, documents: [c, a, b, README.md, docs/x, "*.md"] }\n`)).toEqual([
      'compliance.yml:5 frameworks[0].documents[0]: no document group named "c" (groups: a, b)',
    ]);
    expect(issuesOf(`${minimal}frameworks:\n  - { framework: x, threshold: 1, documents: [c] }\n`)).toEqual([
      'compliance.yml:4 frameworks[0].documents[0]: no document group named "c"',
    ]);
  });
});

describe('parseConfig at its edges', () => {
  it('drops only a leading @ from an assignee', () => {
    expect(parseConfig(`${minimal}gapIssues:\n  assignees: ["@octocat", "team@acme"]\n`).gapIssues.assignees).toEqual(['octocat', 'team@acme']);
  });

  it('refuses a generated output that climbs out of the repository, and takes one that stays in', () => {
    const generate = (output: string) => `${minimal}generate:\n  - type: access_control_policy\n    framework: hipaa-security\n    output: ${output}\n`;
    expect(issuesOf(generate('../outside'))).toEqual(['compliance.yml:6 generate[0].output: must stay inside the repository']);
    expect(parseConfig(generate('generated/..access')).generate[0]?.output).toBe('generated/..access');
  });
});
