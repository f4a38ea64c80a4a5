/** compliance.yml against the service's capabilities, and the example `compliance init` writes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComplianceClient } from '../../../api/node/index.js';
import { assertCapabilities, capabilityIssues } from '../../../cli/lib/capabilityCheck.js';
import { checkDocumentType } from '../../../cli/lib/generateOne.js';
import { STARTER_DOCUMENTS } from '../../../cli/lib/starterDocuments.js';
import { parseConfig } from '../../../review/config.js';
import { ConfigError } from '../../../review/errors.js';
import { exampleConfig } from '../../../review/exampleConfig.js';
import { matchesGlob } from '../../../review/glob.js';
import { LIMITS } from '../../../api/schemas/common.js';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';

const capabilities = {
  verifiedFrameworks: [{ slug: 'nist-csf-2', name: 'NIST Cybersecurity Framework 2.0' }, { slug: 'hipaa-security', name: 'HIPAA Security Rule' }, { slug: 'hipaa-privacy', name: 'HIPAA Privacy Rule' }],
  documentTypes: [{ id: 'framework_reference' }, { id: 'information_security_policy' }, { id: 'access_control_policy' }],
};

describe('config against capabilities', () => {
  it('names a wrong document type and a framework that is not verified or is ambiguous', () => {
    const config = {
      frameworks: [{ framework: 'nist-csf-2' }, { framework: 'nist-csf' }, { framework: 'hipaa' }, { framework: 'pci-dss' }],
      generate: [{ type: 'policy' }, { type: 'information_security_policy' }, { type: 'acces_control_policy' }],
    } as never;
    const issues = capabilityIssues(config, capabilities, 'compliance.yml').map((issue) => `${issue.path}: ${issue.message}`);
    expect(issues).toEqual([
      'frameworks[2].framework: "hipaa" matches hipaa-security, hipaa-privacy: name one by its slug',
      'frameworks[3].framework: "pci-dss" is not a verified framework (compliance frameworks list)',
      'generate[0].type: unknown document type "policy"; the service generates: framework_reference, information_security_policy, access_control_policy',
      'generate[2].type: unknown document type "acces_control_policy". Did you mean access_control_policy?; the service generates: framework_reference, information_security_policy, access_control_policy',
    ]);
    expect(() => assertCapabilities(config, capabilities, 'compliance.yml')).toThrow(ConfigError);
    expect(() => checkDocumentType('policy', capabilities.documentTypes)).toThrow(/unknown document type "policy"/);
  });
});

describe('the example init writes', () => {
  const text = exampleConfig('2026-11-23');
  const config = parseConfig(text);
  // The service's capabilities as the CLI reads them: from the sandbox, over loopback.
  let service: RunningSandbox;
  beforeAll(async () => {
    service = await startSandbox({ port: 0 });
  });
  afterAll(() => service.close());

  it('names only frameworks and document types the service has', async () => {
    const client = new ComplianceClient({ apiKey: service.keys[0]?.key as string, baseUrl: service.baseUrl, maxRetries: 0 });
    expect(capabilityIssues(config, await client.getCapabilities(), 'compliance.yml')).toEqual([]);
    expect(config.generate[0]?.type).toBe('information_security_policy');
  });

  it('starts with a waiver that has not expired', () => {
    expect(config.waivers[0]?.expires).toBe('2027-05-25');
  });

  it('has a starter document for every glob, each one the library accepts', () => {
    for (const pattern of config.documents.flatMap((group) => group.paths)) {
      expect(Object.keys(STARTER_DOCUMENTS).some((path) => matchesGlob(pattern, path)), pattern).toBe(true);
    }
    for (const text of Object.values(STARTER_DOCUMENTS)) expect(text.length).toBeGreaterThanOrEqual(LIMITS.libraryMinChars);
  });
});
