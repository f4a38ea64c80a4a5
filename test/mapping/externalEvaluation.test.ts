/**
 * The evaluation on material nobody here wrote (issue 26): the JupiterOne loader, its crosswalk and
 * split, and the retrieval baselines, on a small package written here in the package's own shape;
 * and, when the real package is unpacked (COMPLIANCE_EVAL_J1_DIR or the tools cache), the set itself
 * and regression floors on its held-out half (bench/mappingExternal.ts reports the figures).
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBaselines } from '../fixtures/evaluation/baselines.js';
import { mappingFramework } from '../fixtures/evaluation/evaluate.js';
import { evaluateJupiterOne, loadJ1, ourControlIds } from '../fixtures/evaluation/jupiterOneEval.js';
import { crosswalkId, J1_CROSSWALK, J1_PACKAGE, J1_SNAPSHOT, j1Half, jupiterOneDir, jupiterOneSnapshotDir, loadJupiterOneSet, loadSnapshotProcedures, renderTemplate } from '../fixtures/evaluation/jupiterone.js';

/** A package directory in the published layout, with the given procedures and mappings. */
function fakePackage(options: { version?: string; hipaa?: Record<string, string[]>; soc2?: Record<string, string[]> } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'j1-'));
  mkdirSync(join(dir, 'templates', 'procedures'), { recursive: true });
  mkdirSync(join(dir, 'templates', 'standards'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: J1_PACKAGE.name, version: options.version ?? J1_PACKAGE.version }));
  const procedures = ['cp-one', 'cp-two', 'cp-no-file'];
  writeFileSync(join(dir, 'templates', 'config.json'), JSON.stringify({ procedures: procedures.map((id) => ({ id, file: `procedures/${id}.md`, provider: 'Okta' })) }));
  writeFileSync(join(dir, 'templates', 'procedures', 'cp-one.md.tmpl'), '### One\n\n{{companyShortName}} enables MFA through {{provider}} and tracks requests in {{ticketingSystem}}.\n{{#needStandardHIPAA}}HIPAA text.{{/needStandardHIPAA}}{{^supportBYODandMDM}}Dropped.{{/supportBYODandMDM}}\n');
  writeFileSync(join(dir, 'templates', 'procedures', 'cp-two.md.tmpl'), '### Two\n\nBackups are taken daily.\n');
  const hipaa = options.hipaa ?? { 'cp-one': ['164.312(d)', '164.316(b)(1)(i)'], 'cp-two': [] };
  writeFileSync(
    join(dir, 'templates', 'standards', 'controls-mapping.json'),
    JSON.stringify({ procedures: Object.entries(hipaa).map(([id, requirements]) => ({ id, implements: [{ standard: 'HIPAA', requirements }, { standard: 'PCI DSS', requirements: ['8.3'] }] })) }),
  );
  const soc2 = options.soc2 ?? { 'CC6.1': ['cp-one'], 'CC1.2': [] };
  writeFileSync(join(dir, 'templates', 'standards', 'soc2-controls-mapping.json'), JSON.stringify({ domains: [{ controls: Object.entries(soc2).map(([ref, procs]) => ({ ref, procedures: procs })) }] }));
  return dir;
}

describe('JupiterOne loader and crosswalk', () => {
  const ours = ourControlIds();

  it('reads procedures with a file, fills placeholders, and labels them in our ids through the crosswalk', () => {
    const set = loadJupiterOneSet(ours, fakePackage(), null);
    expect(set.procedures.map((p) => p.id)).toEqual(['cp-one', 'cp-two']);
    expect(set.procedures.map((p) => p.source)).toEqual(['npm', 'npm']);
    const one = set.procedures[0]!;
    expect(one.text).toContain('Acme enables MFA through Okta and tracks requests in the ticketing system.');
    expect(one.text).toContain('HIPAA text.');
    expect(one.text).not.toMatch(/\{\{|Dropped/);
    // 164.316(b)(1)(i) is the pre-2013 number of our 164.316(b)(2)(i); PCI DSS is not read.
    expect(one.labels).toEqual({ 'hipaa-security': ['164.312(d)', '164.316(b)(2)(i)'], 'soc-2': ['CC6.1'] });
    expect(set.procedures[1]!.labels).toEqual({});
  });

  it('every id the crosswalk renames lands on a control of ours, and lossy steps are written down', () => {
    for (const [slug, crosswalk] of Object.entries(J1_CROSSWALK)) {
      for (const target of Object.values(crosswalk.renamed)) expect(ours[slug as keyof typeof ours].has(target), `${slug} ${target}`).toBe(true);
      expect(crosswalk.lossy.length, slug).toBeGreaterThan(0);
    }
    expect(J1_CROSSWALK['soc-2'].scored('CC7.3')).toBe(true);
    expect(J1_CROSSWALK['soc-2'].scored('A1.2')).toBe(false);
  });

  it('refuses an id the crosswalk does not know, naming it and the fix', () => {
    expect(() => loadJupiterOneSet(ours, fakePackage({ hipaa: { 'cp-one': ['164.999(z)'] } }), null)).toThrow(/HIPAA 164\.999\(z\) has no control in our hipaa-security set; add it to J1_CROSSWALK/);
  });

  it('refuses a missing package naming the directory and COMPLIANCE_EVAL_J1_DIR, and another version', () => {
    const missing = join(tmpdir(), 'no-such-j1');
    expect(() => loadJupiterOneSet(ours, missing, null)).toThrow(new RegExp(`not found at ${missing}: set COMPLIANCE_EVAL_J1_DIR`));
    expect(() => loadJupiterOneSet(ours, fakePackage({ version: '2.10.0' }), null)).toThrow(/is @jupiterone\/security-policy-templates@2\.10\.0, the evaluation is fixed to .*@2\.11\.1/);
  });

  it('looks in COMPLIANCE_EVAL_J1_DIR, else in the tools cache outside the repository', () => {
    expect(jupiterOneDir({ COMPLIANCE_EVAL_J1_DIR: '/x/y' })).toBe('/x/y');
    expect(jupiterOneDir({})).toMatch(/\.cache\/compliance-tools\/[0-9a-f]{16}\/node_modules\/@jupiterone\/security-policy-templates$/);
    expect(jupiterOneDir({}).startsWith(process.cwd())).toBe(false);
  });

  it('reads the GitHub snapshot only when its files are the pinned commit\'s, naming the file and the commit otherwise', () => {
    expect(() => loadSnapshotProcedures(ours, mkdtempSync(join(tmpdir(), 'j1-repo-')))).toThrow(/templates\/config\.json not found: set COMPLIANCE_EVAL_J1_REPO_DIR to a checkout of .* at 0dcc3b2/);
    const dir = fakePackage();
    expect(() => loadSnapshotProcedures(ours, dir)).toThrow(/config\.json is not the file of commit 0dcc3b2[0-9a-f]+ \(sha256 [0-9a-f]{64}, expected 86ff0839/);
    expect(jupiterOneSnapshotDir({})).toBeUndefined();
    expect(jupiterOneSnapshotDir({ COMPLIANCE_EVAL_J1_REPO_DIR: '/r' })).toBe('/r');
    expect(Object.keys(J1_SNAPSHOT.sha256)).toContain('templates/config.json');
  });

  it('NIST CSF: drops the CSF 1.1 leftovers and reads "GV.OV-03:" as GV.OV-03; ISO: drops clauses 4–10, keeps Annex A; unknown ids stop the load', () => {
    const ids = ourControlIds();
    expect(crosswalkId('nist-csf-2', 'GV.OV-03:', ids['nist-csf-2'])).toBe('GV.OV-03');
    expect(crosswalkId('nist-csf-2', 'PR.DS-05', ids['nist-csf-2'])).toBeUndefined();
    expect(crosswalkId('nist-csf-2', 'RS.IM-1', ids['nist-csf-2'])).toBeUndefined();
    expect(() => crosswalkId('nist-csf-2', 'PR.XX-01', ids['nist-csf-2'])).toThrow(/NIST CSF 2\.0 PR\.XX-01 has no control in our nist-csf-2 set/);
    expect(crosswalkId('iso-27001', '6.1.2.a', ids['iso-27001'])).toBeUndefined();
    expect(crosswalkId('iso-27001', 'A.5.24', ids['iso-27001'])).toBe('A.5.24');
    expect(() => crosswalkId('iso-27001', 'A.9.9', ids['iso-27001'])).toThrow(/ISO\/IEC 27001:2022 A\.9\.9 has no control/);
  });

  it('splits by the procedure id alone, into both halves', () => {
    const ids = Array.from({ length: 40 }, (_, i) => `cp-${i}`);
    const halves = ids.map(j1Half);
    expect(ids.map(j1Half)).toEqual(halves);
    expect(new Set(halves)).toEqual(new Set(['tuning', 'held-out']));
  });

  it('renders an inverted section away and any other variable as a plain phrase', () => {
    expect(renderTemplate('{{^a}}x{{/a}}See {{&securityPolicyURL}} by {{companyFullName}}.', 'P')).toBe('See the security policy page by Acme.');
  });
});

describe('retrieval baselines from the catalogue', () => {
  const soc2 = mappingFramework('soc-2').controls;
  const baselines = buildBaselines(soc2);
  const text = 'Vulnerability scanning runs weekly and configuration monitoring raises drift detection alerts; vulnerability management tracks every finding.';

  it('keyword ≥ 2 predicts a control two of whose keywords are present, and not one with a single keyword', () => {
    expect(baselines.predict('keyword ≥ 2', text)).toContain('CC7.1');
    expect(baselines.predict('keyword ≥ 2', 'We run vulnerability scanning.')).toEqual([]);
  });

  it.each(['BM25 top 3', 'TF-IDF top 3'] as const)('%s ranks the control the text is about first, three at most', (name) => {
    const predicted = baselines.predict(name, text);
    expect(predicted[0]).toBe('CC7.1');
    expect(predicted.length).toBe(3);
    expect(baselines.predict(name, 'Sourdough rises overnight in a warm kitchen.')).toEqual([]);
  });

  it('the TF-IDF ranking behind the label-count ceiling is TF-IDF top 3 continued, and ranks only similar controls', () => {
    const ranking = baselines.tfIdfRanking(text);
    expect(ranking.slice(0, 3)).toEqual(baselines.predict('TF-IDF top 3', text));
    expect(ranking.length).toBeGreaterThan(3);
    expect(ranking.length).toBeLessThan(soc2.length);
    expect(baselines.tfIdfRanking('Sourdough rises overnight in a warm kitchen.')).toEqual([]);
  });
});

const available = existsSync(join(jupiterOneDir(), 'package.json'));
/** Held-out precision floors (regression guards a little under the measured figures, not issue 26's target). */
const PRECISION_FLOOR = { 'hipaa-security': 0.2, 'soc-2': 0.2, 'nist-csf-2': 0.12, 'iso-27001': 0.12 } as const;
/** How far under BM25 top 3's held-out F1 the engine's may fall before this fails. */
const F1_MARGIN = { 'hipaa-security': 0.05, 'soc-2': 0.05, 'nist-csf-2': 0.05, 'iso-27001': 0.07 } as const;

describe.runIf(available)('the JupiterOne set (package unpacked at COMPLIANCE_EVAL_J1_DIR)', () => {
  const set = available ? loadJ1() : { dir: '', procedures: [] };

  it('is the 2.11.1 set: 139 procedures with files, HIPAA labels on 70 and SOC 2 labels on 115, split into both halves', () => {
    const npm = set.procedures.filter((p) => p.source === 'npm');
    expect(npm).toHaveLength(139);
    expect(npm.filter((p) => p.labels['hipaa-security']?.length)).toHaveLength(70);
    expect(npm.filter((p) => p.labels['soc-2']?.length)).toHaveLength(115);
    expect(npm.filter((p) => p.half === 'held-out').length).toBe(64);
  });

  it.runIf(jupiterOneSnapshotDir())('with the snapshot: its 141 procedures, NIST CSF 2.0 labels on 42 (122 labels) and ISO 27001 Annex A labels on 93 (209)', () => {
    const snapshot = set.procedures.filter((p) => p.source === 'snapshot');
    expect(snapshot).toHaveLength(141);
    const count = (slug: 'nist-csf-2' | 'iso-27001') => [snapshot.filter((p) => p.labels[slug]?.length).length, snapshot.reduce((n, p) => n + (p.labels[slug]?.length ?? 0), 0)];
    expect(count('nist-csf-2')).toEqual([42, 122]);
    expect(count('iso-27001')).toEqual([93, 209]);
    expect(snapshot.every((p) => !p.labels['hipaa-security'] && !p.labels['soc-2'])).toBe(true);
  });

  it('held-out half: the engine keeps above its regression floor (not the issue 26 target, which is not met; see the fixture README)', () => {
    for (const score of evaluateJupiterOne(set, 'held-out')) {
      const engine = score.methods.find((m) => m.method === 'engine: covered or partial')!;
      const bm25 = score.methods.find((m) => m.method === 'BM25 top 3')!;
      expect(engine.f1, score.framework).toBeGreaterThanOrEqual(bm25.f1 - F1_MARGIN[score.framework]);
      expect(engine.precision, score.framework).toBeGreaterThanOrEqual(PRECISION_FLOOR[score.framework]);
    }
  });
});
