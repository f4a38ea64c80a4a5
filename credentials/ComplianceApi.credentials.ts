import type {
  IAuthenticateGeneric,
  Icon,
  ICredentialTestRequest,
  ICredentialType,
  INodeProperties,
} from 'n8n-workflow';

/**
 * The base URL as entered, reduced to `<origin>/api/public/v1` the way api/baseUrl.ts normalises it:
 * a host root gets the prefix, a URL already ending in it (with or without a trailing slash) keeps it.
 */
const NORMALISED_BASE_URL =
  "={{ String($credentials.baseUrl || '').trim().replace(/\\/+$/, '').replace(/\\/api\\/public\\/v1$/, '') + '/api/public/v1' }}";

export class ComplianceApi implements ICredentialType {
  name = 'complianceApi';

  displayName = 'Compliance API';

  icon: Icon = { light: 'file:../nodes/Compliance/compliance.svg', dark: 'file:../nodes/Compliance/compliance.dark.svg' };

  documentationUrl = 'https://github.com/compliance-automation/compliance-automation/tree/main/packages/n8n-nodes-compliance#credentials';

  properties: INodeProperties[] = [
    {
      displayName: 'API Key',
      name: 'apiKey',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
      description: 'The API key, shown once when it was issued. Sandbox keys are free; live keys spend prepaid tokens.',
    },
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: '',
      required: true,
      placeholder: 'e.g. https://compliance.example.com',
      hint: 'The address issued with your API key. To try the node without one, run a local sandbox (npx compliance-engine-cli sandbox) and enter the URL it prints.',
      description:
        'The address of the service: https://&lt;host&gt; or https://&lt;host&gt;/api/public/v1. Plain http only for a local sandbox on this machine.',
    },
    {
      displayName: 'Send Key In',
      name: 'authHeader',
      type: 'options',
      options: [
        { name: 'Authorization: Bearer', value: 'bearer' },
        { name: 'X-API-Key', value: 'xApiKey' },
      ],
      default: 'bearer',
      description: 'The header that carries the key; the service accepts either',
    },
  ];

  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: {
      headers: {
        '={{ $credentials.authHeader === "xApiKey" ? "X-API-Key" : "Authorization" }}':
          '={{ $credentials.authHeader === "xApiKey" ? $credentials.apiKey : "Bearer " + $credentials.apiKey }}',
      },
    },
  };

  test: ICredentialTestRequest = {
    request: {
      baseURL: NORMALISED_BASE_URL,
      url: '/ping',
      method: 'GET',
    },
    rules: [
      {
        type: 'responseSuccessBody',
        properties: { key: 'ok', value: false, message: 'The service did not confirm the key' },
      },
    ],
  };
}
