/** Credentials and workflows imported into the real n8n (node type names as a user's export has them). */
export const COMPLIANCE = 'n8n-nodes-compliance.compliance';
export const TRIGGER = 'n8n-nodes-compliance.complianceTrigger';

export interface Keys {
  sandbox: string;
  trigger: string;
  live: string;
}

export function credentials(origin: string, baseUrl: string, keys: Keys) {
  return [
    // A host root: the node and the credential test add /api/public/v1.
    { id: 'credBearer000001', name: 'Compliance (Bearer)', type: 'complianceApi', data: { apiKey: keys.sandbox, baseUrl: origin, authHeader: 'bearer' } },
    // The full base URL, trailing slash and all, with the X-API-Key header.
    { id: 'credHeader000001', name: 'Compliance (X-API-Key)', type: 'complianceApi', data: { apiKey: keys.sandbox, baseUrl: `${baseUrl}/`, authHeader: 'xApiKey' } },
    { id: 'credBadKey000001', name: 'Compliance (bad key)', type: 'complianceApi', data: { apiKey: 'csk_sandbox_not_a_real_key_0000', baseUrl, authHeader: 'bearer' } },
    { id: 'credTrigger00001', name: 'Compliance (trigger)', type: 'complianceApi', data: { apiKey: keys.trigger, baseUrl, authHeader: 'bearer' } },
    { id: 'credLive00000001', name: 'Compliance (live, low balance)', type: 'complianceApi', data: { apiKey: keys.live, baseUrl, authHeader: 'xApiKey' } },
  ];
}

const cred = (id: string, name: string) => ({ complianceApi: { id, name } });
const BEARER = cred('credBearer000001', 'Compliance (Bearer)');
const HEADER = cred('credHeader000001', 'Compliance (X-API-Key)');
const BAD = cred('credBadKey000001', 'Compliance (bad key)');
const LIVE = cred('credLive00000001', 'Compliance (live, low balance)');

let position = 0;
function node(name: string, type: string, parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  position += 220;
  return { id: `node-${name.replace(/\W/g, '')}`, name, type, typeVersion: 1, position: [position, 0], parameters, ...extra };
}
const start = () => node('Start', 'n8n-nodes-base.manualTrigger', {});
function chain(...names: string[]) {
  const connections: Record<string, { main: Array<Array<{ node: string; type: 'main'; index: number }>> }> = {};
  for (let i = 0; i < names.length - 1; i++) {
    connections[names[i]!] = { main: [[{ node: names[i + 1]!, type: 'main', index: 0 }]] };
  }
  return connections;
}
function workflow(id: string, name: string, nodes: unknown[], connections: unknown) {
  return { id, name, active: false, isArchived: false, settings: { executionOrder: 'v1' }, nodes, connections, pinData: {} };
}

export const POLICY_TEXT = [
  'Access Control Policy of Acme Ltd.',
  'Access to information systems is granted on the principle of least privilege and need to know.',
  'All user accounts are unique; shared accounts are prohibited. Multi-factor authentication is required for remote access and for all privileged accounts.',
  'Access rights are reviewed quarterly by system owners and revoked within one working day of a leaver notification.',
  'Privileged access is approved by the CISO, logged, and monitored. Passwords follow the password standard and are stored only as salted hashes.',
  'Security events are logged centrally and retained for twelve months; incidents are reported to the security team at once.',
].join('\n');

export const LIBRARY_TEXT =
  'Least privilege access review procedure. Every quarter the owners of each production system review who holds access, ' +
  'confirm that each account still needs it, and remove access that is no longer required. Reviews are recorded in the ' +
  'ticketing system with the reviewer, date and outcome, and exceptions are approved by the security team.';

export const WORKFLOW_IDS = {
  ping: 'wfCompliancePing1',
  generate: 'wfComplianceGen01',
  map: 'wfComplianceMap01',
  library: 'wfComplianceLib01',
  triggerBalance: 'wfComplianceTrgB1',
  locators: 'wfComplianceLoc01',
} as const;

export function workflows() {
  const ping = workflow(
    WORKFLOW_IDS.ping,
    'Compliance: credentials (ping)',
    [
      start(),
      node('Ping Bearer', COMPLIANCE, { resource: 'account', operation: 'ping' }, { credentials: BEARER }),
      node('Ping X-API-Key', COMPLIANCE, { resource: 'account', operation: 'ping' }, { credentials: HEADER }),
      node('Ping Bad Key', COMPLIANCE, { resource: 'account', operation: 'ping' }, { credentials: BAD, onError: 'continueRegularOutput' }),
    ],
    {
      Start: {
        main: [
          [
            { node: 'Ping Bearer', type: 'main', index: 0 },
            { node: 'Ping X-API-Key', type: 'main', index: 0 },
            { node: 'Ping Bad Key', type: 'main', index: 0 },
          ],
        ],
      },
    },
  );

  const generate = workflow(
    WORKFLOW_IDS.generate,
    'Compliance: generate, wait, download PDF',
    [
      start(),
      node(
        'Generate',
        COMPLIANCE,
        {
          resource: 'document',
          operation: 'generate',
          framework: 'gdpr',
          documentType: 'data_protection_policy',
          organisation: { name: 'Acme Ltd', country: 'GB' },
          waitForCompletion: true,
          waitTimeout: 120,
          onTimeout: 'fail',
        },
        { credentials: BEARER },
      ),
      node('Download PDF', COMPLIANCE, { resource: 'document', operation: 'download', jobId: '={{ $json.jobId }}', format: 'pdf', binaryPropertyName: 'policy' }, { credentials: BEARER }),
    ],
    chain('Start', 'Generate', 'Download PDF'),
  );

  const map = workflow(
    WORKFLOW_IDS.map,
    'Compliance: map an uploaded file',
    [
      start(),
      {
        ...node('Policy Text', 'n8n-nodes-base.set', {
          mode: 'manual',
          assignments: { assignments: [{ id: 'content', name: 'content', value: POLICY_TEXT, type: 'string' }] },
          options: {},
        }),
        typeVersion: 3.4,
      },
      {
        ...node('To File', 'n8n-nodes-base.convertToFile', {
          operation: 'toText',
          sourceProperty: 'content',
          binaryPropertyName: 'data',
          options: { fileName: 'access-control-policy.txt' },
        }),
        typeVersion: 1.1,
      },
      node(
        'Map',
        COMPLIANCE,
        { resource: 'document', operation: 'map', framework: 'iso-27001', inputDataType: 'binary', binaryPropertyName: 'data', options: { title: 'Access control' }, waitTimeout: 120 },
        { credentials: HEADER },
      ),
      node('Report', COMPLIANCE, { resource: 'document', operation: 'download', jobId: '={{ $json.jobId }}', format: 'json' }, { credentials: HEADER }),
    ],
    chain('Start', 'Policy Text', 'To File', 'Map', 'Report'),
  );

  const library = workflow(
    WORKFLOW_IDS.library,
    'Compliance: library ingest and search',
    [
      start(),
      node(
        'Ingest',
        COMPLIANCE,
        {
          resource: 'library',
          operation: 'ingest',
          title: 'Access review procedure',
          content: LIBRARY_TEXT,
          additionalFields: { tags: 'access, review', filename: 'policies/access-review.md' },
          waitTimeout: 120,
        },
        { credentials: BEARER },
      ),
      node('Search', COMPLIANCE, { resource: 'library', operation: 'search', query: 'least privilege review', returnAll: false, limit: 5 }, { credentials: BEARER }),
    ],
    chain('Start', 'Ingest', 'Search'),
  );

  // Version 2: the identifiers as resource locators, as the editor saves them.
  const v2 = { typeVersion: 2 };
  const locators = workflow(
    WORKFLOW_IDS.locators,
    'Compliance v2: resource locators',
    [
      start(),
      node('Framework From List', COMPLIANCE, { resource: 'framework', operation: 'get', slug: { __rl: true, mode: 'list', value: 'iso-27001', cachedResultName: 'ISO/IEC 27001' } }, { credentials: BEARER, ...v2 }),
      node(
        'Generate From List',
        COMPLIANCE,
        { resource: 'document', operation: 'generate', framework: { __rl: true, mode: 'list', value: '={{ $json.slug }}' }, documentType: 'framework_reference', waitTimeout: 120 },
        { credentials: BEARER, ...v2 },
      ),
      node('Job By ID', COMPLIANCE, { resource: 'job', operation: 'get', jobId: { __rl: true, mode: 'id', value: '={{ $json.jobId }}' } }, { credentials: BEARER, ...v2 }),
      // A fixed bad ID would not even start (n8n checks the locator's UUID pattern before running,
      // as the editor does as you type); one an expression gives reaches the node's own check.
      node('Bad Job ID', COMPLIANCE, { resource: 'job', operation: 'get', jobId: { __rl: true, mode: 'id', value: '={{ "not-a-job" }}' } }, { credentials: BEARER, onError: 'continueRegularOutput', ...v2 }),
    ],
    chain('Start', 'Framework From List', 'Generate From List', 'Job By ID', 'Bad Job ID'),
  );

  return [ping, generate, map, library, locators];
}

/** Balance Low → HTTP Request posting each event to `captureUrl`; activated with `n8n publish:workflow`. */
export function triggerWorkflow(captureUrl: string) {
  return workflow(
    WORKFLOW_IDS.triggerBalance,
    'Compliance: balance low trigger',
    [
      // Hourly, so only the poll n8n runs at activation happens during the test.
      node('Balance Low', TRIGGER, { event: 'balanceLow', thresholdDays: 7, pollTimes: { item: [{ mode: 'everyHour' }] } }, { credentials: LIVE }),
      {
        ...node('Capture', 'n8n-nodes-base.httpRequest', {
          method: 'POST',
          url: captureUrl,
          sendBody: true,
          specifyBody: 'json',
          jsonBody: '={{ JSON.stringify($json) }}',
          options: {},
        }),
        typeVersion: 4.2,
      },
    ],
    chain('Balance Low', 'Capture'),
  );
}
