/**
 * Gap explanations never contradict the text they explain. Every gap of examples/ (against each
 * verified framework with a control set) and of the JupiterOne procedures (against the frameworks
 * their authors labelled them for) is held against its text, with a check written independently of
 * the mapping: a key term reported absent ("no statement on", "nothing covers") occurs nowhere in the
 * text word for word, and a term reported named is cited at a line of the file, with a reason.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFileHeader } from '../../api/schemas/common.js';
import { policyText } from '../../review/mapping.js';
import { mapText, type MappingResult } from '../../sandbox/mapping/index.js';
import { mappingFramework } from '../fixtures/evaluation/evaluate.js';
import { loadJ1 } from '../fixtures/evaluation/jupiterOneEval.js';
import { jupiterOneDir, type J1Framework } from '../fixtures/evaluation/jupiterone.js';

const REASONS = [
  'not stated as a requirement that meets this control',
  'delegated to a provider',
  'negated: stated as not done',
  'out of scope: stated as not applicable',
  'in a statement of what a document covers, not a requirement',
  'only as a heading or label, not a requirement',
];

interface Named {
  keyword: string;
  source: string | undefined;
  line: number;
  reason: string;
}

/** The explanation's claims, read back from its words. */
function claims(missing: string): { absent: string[]; named: Named[] } {
  const absent = /(?:[Nn]o statement on|Nothing covers): (.+)\.$/.exec(missing)?.[1]?.split(', ') ?? [];
  const named = [...missing.matchAll(/"([^"]+)" \((?:([^,()]+), )?line (\d+): ([^)]+)\)/g)].map((match) => ({ keyword: match[1]!, source: match[2], line: Number(match[3]), reason: match[4]! }));
  return { absent, named };
}

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where `keyword` stands word for word in `text`, as a reader would find it: its words in order,
 * joined by spaces, hyphens or nothing ("log-in", "login") on one line within one sentence, a plural
 * allowed; or undefined.
 */
function findWords(text: string, keyword: string): string | undefined {
  const parts = fold(keyword).match(/[\p{L}\p{N}]+/gu) ?? [];
  if (parts.length === 0) return undefined;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${parts.map(escape).join('[^\\p{L}\\p{N}.!?:;|\\n]*')}(?:s|es)?(?![\\p{L}\\p{N}])`, 'u');
  return fold(text)
    .split('\n')
    .find((line) => pattern.test(line));
}

/** Every way an explanation of `result` contradicts `files` (path → the text as sent). */
function contradictions(result: MappingResult, files: ReadonlyMap<string, string>, label: string): string[] {
  const found: string[] = [];
  const all = [...files.values()].join('\n');
  for (const gap of result.gaps) {
    const { absent, named } = claims(gap.missing);
    const where = `${label} ${gap.controlId}`;
    for (const keyword of absent) {
      const line = findWords(all, keyword);
      if (line !== undefined) found.push(`${where}: says nothing states "${keyword}", but the text has: ${line.trim().slice(0, 160)}`);
    }
    for (const claim of named) {
      const text = files.get(claim.source ?? [...files.keys()][0]!) ?? '';
      const line = text.split('\n')[claim.line - 1];
      if (!line?.trim()) found.push(`${where}: cites "${claim.keyword}" at ${claim.source ?? ''} line ${claim.line}, which is no line of text`);
      if (!REASONS.includes(claim.reason)) found.push(`${where}: "${claim.keyword}" has no reason it is not enough (${claim.reason})`);
      // The recommendation asks to state what is done about a named term, never to name it.
      const asked = /(?:Name|Address) (.+?) explicitly\./.exec(gap.recommendation)?.[1] ?? '';
      if (asked.includes(`"${claim.keyword}"`)) found.push(`${where}: asks to name "${claim.keyword}", which the text names`);
    }
    if (absent.length + named.length === 0) found.push(`${where}: the explanation lists no key term (${gap.missing})`);
  }
  return found;
}

const EXAMPLES = join(import.meta.dirname, '../../examples/policies');
const FRAMEWORKS: readonly J1Framework[] = ['hipaa-security', 'soc-2', 'nist-csf-2', 'iso-27001'];

describe('gap explanations hold against the text they explain', () => {
  it.each(FRAMEWORKS)('examples/, combined as the review loop sends it, against %s', (slug) => {
    const files = new Map(readdirSync(EXAMPLES).sort().map((name) => [`policies/${name}`, policyText(readFileSync(join(EXAMPLES, name), 'utf8'))]));
    const text = [...files].map(([path, content]) => `${sourceFileHeader(path)}\n${content}`).join('\n');
    const result = mapText({ text, framework: mappingFramework(slug) });
    expect(result.gaps.length).toBeGreaterThan(0);
    expect(contradictions(result, files, slug)).toEqual([]);
  });

  const available = existsSync(join(jupiterOneDir(), 'package.json'));
  it.runIf(available)('every JupiterOne procedure, against each framework its authors labelled it for', () => {
    const set = loadJ1();
    const found: string[] = [];
    let gaps = 0;
    let named = 0;
    for (const procedure of set.procedures) {
      for (const slug of FRAMEWORKS.filter((framework) => procedure.labels[framework]?.length)) {
        const result = mapText({ text: procedure.text, framework: mappingFramework(slug) });
        gaps += result.gaps.length;
        named += result.gaps.filter((gap) => gap.missing.includes('Named, but not enough')).length;
        found.push(...contradictions(result, new Map([['', procedure.text]]), `${procedure.id} ${slug}`));
      }
    }
    // Thousands of explanations, many of them naming what the text says without meeting the control.
    expect(gaps).toBeGreaterThan(5_000);
    expect(named).toBeGreaterThan(100);
    expect(found).toEqual([]);
  }, 120_000);
});

describe('a term the text names is reported as named, with why it is not enough', () => {
  const hipaa = mappingFramework('hipaa-security');
  const explained = (text: string, controlId: string) => mapText({ text, framework: hipaa }).gaps.find((gap) => gap.controlId === controlId)?.missing ?? '';

  it.each([
    ['a heading', '# Acme\n\n## Password management\n\nAcme ships software.\n', 'only as a heading or label, not a requirement', 3],
    ['negated', '# Acme\n\nAcme does not maintain password management rules.\n', 'negated: stated as not done', 3],
    ['out of scope', '# Acme\n\nPassword management is out of scope for this document.\n', 'out of scope: stated as not applicable', 3],
    ['a scope statement', '# Acme\n\nThis policy applies to password management and to every laptop.\n', 'in a statement of what a document covers, not a requirement', 3],
    ['a passing mention', '# Acme\n\nThe wiki has a page on password management.\n', 'not stated as a requirement that meets this control', 3],
  ])('password management as %s', (_label, text, reason, line) => {
    const missing = explained(text, '164.308(a)(5)(ii)(D)');
    expect(missing).toContain(`"password management" (line ${line}: ${reason})`);
    expect(missing).not.toMatch(/no statement on: [^.]*password management/i);
  });

  it('log-in monitoring and the security officer, named in plain words, are never reported absent', () => {
    const text = '# Acme\n\n## Log-in monitoring\n\nThis policy applies to the security officer.\n';
    expect(explained(text, '164.308(a)(5)(ii)(C)')).toContain('"log-in monitoring" (line 3: only as a heading or label, not a requirement)');
    expect(explained(text, '164.308(a)(2)')).toContain('"security officer" (line 5: in a statement of what a document covers, not a requirement)');
  });
});
