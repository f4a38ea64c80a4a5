import { describe, expect, it } from 'vitest';
import { eventPolicy, gateChanges, gateConfiguration, gitHubEvent, parseConfig } from '../../review/index.js';

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
    const gate = gateConfiguration(eventPolicy(gitHubEvent('pull_request', 4)), HEAD, BASE);
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
    expect(gateConfiguration(eventPolicy(gitHubEvent('push')), HEAD, BASE)).toEqual({ config: HEAD, source: 'head', changes: [] });
    expect(gateConfiguration(eventPolicy(gitHubEvent('pull_request', 4)), HEAD, undefined)).toEqual({ config: HEAD, source: 'head', changes: [] });
  });

  it('no change, no lines; a removed waiver is named', () => {
    expect(gateChanges(BASE, BASE)).toEqual([]);
    expect(gateChanges(BASE, { ...BASE, waivers: [] })).toEqual(['waiver removed: hipaa-security 164.308(a)(5) (owner alice, until 2026-12-31)']);
  });
});
