import { describe, expect, it } from 'vitest';
import { eventPolicy, gateChanges, gateConfiguration, gateNotes, parseConfig } from '../../review/index.js';

const BASE = parseConfig(`documents:
  - name: policies
    paths: ["policies/*.md"]
frameworks:
  - framework: hipaa-security
    threshold: 80
  - framework: gdpr
    threshold: 60
waivers:
  - { framework: hipaa-security, control: "164.308(a)(5)", reason: Training vendor, owner: alice, expires: 2026-12-31 }
`);
const HEAD = parseConfig(`documents:
  - name: policies
    paths: ["policies/**/*.md"]
frameworks:
  - framework: hipaa-security
    threshold: 10
    mode: per-document
  - framework: nist-csf-2
    threshold: 50
waivers:
  - { framework: hipaa-security, control: "164.308(a)(5)", reason: Training vendor, owner: alice, expires: 2030-01-01 }
  - { framework: hipaa-security, control: "164.312(b)", reason: later, owner: bob, expires: 2030-01-01 }
`);

describe('gateConfiguration: a pull request is judged by the default branch gate', () => {
  it('takes frameworks and waivers from the base, documents from the pull request, and lists every gate change', () => {
    const gate = gateConfiguration(eventPolicy({ kind: 'pull_request', pullRequest: 4 }), HEAD, BASE);
    expect(gate.source).toBe('base');
    expect(gate.config.frameworks).toEqual(BASE.frameworks);
    expect(gate.config.waivers).toEqual(BASE.waivers);
    expect(gate.config.documents).toEqual(HEAD.documents);
    expect(gate.changes).toEqual([
      'hipaa-security: threshold 80% → 10%',
      'hipaa-security: mode combined → per-document',
      'framework gdpr removed (threshold 60%)',
      'framework nist-csf-2 added (threshold 50%)',
      'waiver changed: hipaa-security 164.308(a)(5) (owner alice, until 2026-12-31) → hipaa-security 164.308(a)(5) (owner alice, until 2030-01-01)',
      'waiver added: hipaa-security 164.312(b) (owner bob, until 2030-01-01)',
    ]);
  });

  it('a push, or a pull request without the base copy, runs its own gate', () => {
    const own = { config: { ...HEAD, failOn: 'coverage' }, failOn: 'coverage', source: 'head', changes: [], ignored: [] };
    expect(gateConfiguration(eventPolicy({ kind: 'push' }), HEAD, BASE)).toEqual(own);
    expect(gateConfiguration(eventPolicy({ kind: 'pull_request', pullRequest: 4 }), HEAD, undefined)).toEqual(own);
  });

  it("the base's failOn judges a pull request: relaxing it in compliance.yml is a listed change, relaxing it by input is not applied", () => {
    const strictBase = { ...BASE, failOn: 'new-gaps' as const };
    const gate = gateConfiguration(eventPolicy({ kind: 'pull_request', pullRequest: 4 }), { ...HEAD, failOn: 'coverage' }, strictBase, {
      failOn: 'coverage',
      threshold: 5,
      waivers: [{ framework: 'hipaa-security', control: '164.312(b)', reason: 'later', owner: 'dev', expires: '2030-01-01' }],
    });
    expect(gate.failOn).toBe('new-gaps');
    expect(gate.config.failOn).toBe('new-gaps');
    expect(gate.config.frameworks.map((entry) => entry.threshold)).toEqual([80, 60]);
    expect(gate.config.waivers).toEqual(BASE.waivers);
    expect(gate.changes[0]).toBe('failOn new-gaps → coverage');
    expect(gate.ignored).toEqual([
      "fail-on coverage not applied: the default branch's compliance.yml sets failOn: new-gaps, and a flag or input can only make the gate stricter",
      "threshold 5% not applied to hipaa-security: the default branch's compliance.yml sets 80%, and on a pull request an input can only raise it",
      "threshold 5% not applied to gdpr: the default branch's compliance.yml sets 60%, and on a pull request an input can only raise it",
      "waivers not applied (hipaa-security 164.312(b) (owner dev, until 2030-01-01)): a pull request is judged by the waivers of the default branch's compliance.yml",
    ]);
  });

  it('an input makes the gate stricter on any event: a higher threshold, failOn over coverage, an added framework; never narrower on a pull request', () => {
    const pr = eventPolicy({ kind: 'pull_request', pullRequest: 4 });
    const raised = gateConfiguration(pr, HEAD, BASE, { failOn: 'declared-without-evidence', threshold: 90, framework: 'gdpr', labels: { framework: '--framework' } });
    expect(raised.failOn).toBe('declared-without-evidence');
    expect(raised.config.frameworks.map((entry) => [entry.framework, entry.threshold])).toEqual([['hipaa-security', 80], ['gdpr', 90]]);
    expect(raised.ignored).toEqual(["--framework gdpr does not narrow the gate: a pull request is judged by every framework of the default branch's compliance.yml"]);
    const added = gateConfiguration(pr, HEAD, BASE, { framework: 'soc-2', threshold: 70 });
    expect(added.config.frameworks.map((entry) => entry.framework)).toEqual(['hipaa-security', 'gdpr', 'soc-2']);
    // On a push the workflow is the default branch's own: the inputs narrow and set the threshold as before.
    const push = gateConfiguration(eventPolicy({ kind: 'push' }), { ...HEAD, failOn: 'new-gaps' }, undefined, { failOn: 'coverage', framework: 'nist-csf-2', threshold: 20 });
    expect(push.failOn).toBe('new-gaps');
    expect(push.ignored).toEqual(['fail-on coverage not applied: compliance.yml sets failOn: new-gaps, and a flag or input can only make the gate stricter']);
    expect(push.config.frameworks).toEqual([{ framework: 'nist-csf-2', threshold: 20, mode: 'combined' }]);
    // The two stricter checks are different checks: one does not replace the other.
    expect(gateConfiguration(pr, HEAD, { ...BASE, failOn: 'new-gaps' }, { failOn: 'declared-without-evidence' }).failOn).toBe('new-gaps');
    expect(() => gateConfiguration(pr, HEAD, BASE, { framework: 'soc-2' })).toThrow('threshold is required: soc-2 is not among the frameworks of compliance.yml');
  });

  it('no change, no lines; a removed waiver is named', () => {
    expect(gateChanges(BASE, BASE)).toEqual([]);
    expect(gateChanges(BASE, { ...BASE, waivers: [] })).toEqual(['waiver removed: hipaa-security 164.308(a)(5) (owner alice, until 2026-12-31)']);
  });
});

describe('gateConfiguration, each request as far as the event allows (mutants that survived the tests above)', () => {
  const pr = eventPolicy({ kind: 'pull_request', pullRequest: 4 });
  const push = eventPolicy({ kind: 'push' });
  const extra = { framework: 'hipaa-security', control: '164.308(a)(5)', reason: 'renewed', owner: 'carol', expires: '2031-01-01' };
  const other = { framework: 'gdpr', control: 'Art. 32', reason: 'later', owner: 'dan', expires: '2031-01-01' };

  it('names frameworks and waivers alike whatever their case and spaces; documents, owners and reasons are changes', () => {
    const respelled = { ...BASE, frameworks: BASE.frameworks.map((entry) => ({ ...entry, framework: ` ${entry.framework.toUpperCase()} ` })) };
    expect(gateChanges(BASE, respelled)).toEqual([]);
    const documents = { ...BASE, frameworks: [{ ...BASE.frameworks[0]!, documents: ['policies', 'hr'] }, BASE.frameworks[1]!] };
    expect(gateChanges(BASE, documents)).toEqual(['hipaa-security: documents (every document) → policies, hr']);
    const waiver = BASE.waivers[0]!;
    expect(gateChanges(BASE, { ...BASE, waivers: [{ ...waiver, owner: 'mallory' }] })).toEqual([
      'waiver changed: hipaa-security 164.308(a)(5) (owner alice, until 2026-12-31) → hipaa-security 164.308(a)(5) (owner mallory, until 2026-12-31)',
    ]);
    expect(gateChanges(BASE, { ...BASE, waivers: [{ ...waiver, reason: 'another reason' }] })).toHaveLength(1);
  });

  it('on a push, input waivers replace compliance.yml\'s for the same control and add the others; a mode applies to every framework', () => {
    const gate = gateConfiguration(push, HEAD, BASE, { waivers: [extra, other], mode: 'per-document' });
    expect(gate.ignored).toEqual([]);
    expect(gate.config.waivers).toEqual([HEAD.waivers[1], extra, other]);
    expect(gate.config.frameworks.map((entry) => entry.mode)).toEqual(['per-document', 'per-document']);
    expect(gateConfiguration(push, HEAD, BASE, { waivers: [] }).config.waivers).toEqual(HEAD.waivers);
  });

  it('on a push, a framework compliance.yml does not list is the only one mapped, combined unless a mode is asked', () => {
    expect(gateConfiguration(push, HEAD, BASE, { framework: ' soc-2 ', threshold: 70 }).config.frameworks).toEqual([{ framework: 'soc-2', threshold: 70, documents: undefined, mode: 'combined' }]);
    expect(gateConfiguration(push, HEAD, BASE, { framework: 'soc-2', threshold: 70, mode: 'per-document' }).config.frameworks[0]?.mode).toBe('per-document');
    expect(gateConfiguration(push, HEAD, BASE, { framework: ' NIST-CSF-2 ', threshold: 70 }).config.frameworks.map((entry) => entry.framework)).toEqual(['nist-csf-2']);
  });

  it('an unlisted framework without a threshold is a configuration error naming the label and the fix', () => {
    expect(() => gateConfiguration(pr, HEAD, BASE, { framework: 'soc-2', labels: { threshold: '--threshold' } })).toThrowError(expect.objectContaining({
      code: 'invalid_config',
      message: '--threshold is required: soc-2 is not among the frameworks of compliance.yml',
      hint: 'Give --threshold (0 to 100), or add the framework to compliance.yml.',
    }));
  });

  it('on a pull request, a threshold equal to the base\'s is applied without a notice; naming the only framework narrows nothing and says nothing', () => {
    const equal = gateConfiguration(pr, HEAD, BASE, { threshold: 80 });
    expect(equal.config.frameworks.map((entry) => entry.threshold)).toEqual([80, 80]);
    expect(equal.ignored).toEqual([]);
    const single = { ...BASE, frameworks: [BASE.frameworks[0]!] };
    expect(gateConfiguration(pr, HEAD, single, { framework: 'hipaa-security' }).ignored).toEqual([]);
    const named = gateConfiguration(pr, HEAD, BASE, { framework: 'gdpr', mode: 'per-document' });
    expect(named.ignored).toEqual(["framework gdpr does not narrow the gate: a pull request is judged by every framework of the default branch's compliance.yml"]);
    expect(named.config.frameworks.map((entry) => entry.mode)).toEqual(['per-document', 'per-document']);
  });

  it('lists every input waiver not applied on a pull request', () => {
    expect(gateConfiguration(pr, HEAD, BASE, { waivers: [extra, other] }).ignored).toEqual([
      "waivers not applied (hipaa-security 164.308(a)(5) (owner carol, until 2031-01-01); gdpr Art. 32 (owner dan, until 2031-01-01)): a pull request is judged by the waivers of the default branch's compliance.yml",
    ]);
  });
});

describe('gateNotes', () => {
  it('one line for the gate changes and one for the inputs not applied, in the forge\'s word; none when neither', () => {
    const gate = gateConfiguration(eventPolicy({ kind: 'pull_request', pullRequest: 4 }), HEAD, BASE, { threshold: 5 });
    const notes = gateNotes(gate, 'merge request');
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^\*\*This merge request changes the gate in compliance\.yml\.\*\* It is judged by the default branch's gate; the changes apply once merged: hipaa-security: threshold 80% → 10%; /);
    expect(notes[1]).toBe(
      "**Inputs that would loosen the gate were not applied** (the merge request's CI configuration is its own text too): threshold 5% not applied to hipaa-security: the default branch's compliance.yml sets 80%, and on a pull request an input can only raise it; threshold 5% not applied to gdpr: the default branch's compliance.yml sets 60%, and on a pull request an input can only raise it.",
    );
    expect(gateNotes(gateConfiguration(eventPolicy({ kind: 'push' }), HEAD, BASE), 'pull request')).toEqual([]);
  });
});

