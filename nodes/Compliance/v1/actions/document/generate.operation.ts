import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { operations } from '../../../../../api/operations.js';
import { frameworkLocator, locatorValue, versioned } from '../../helpers/locators.js';
import { spendOnce, spendProperties } from '../../helpers/spend.js';
import { compact, text } from '../../helpers/utils.js';
import { submitJob, waitProperties } from '../../helpers/jobs.js';

const displayOptions = { show: { resource: ['document'], operation: ['generate'] } };

const properties: INodeProperties[] = [
  ...versioned(
    {
      displayName: 'Framework',
      name: 'framework',
      type: 'string',
      default: '',
      required: true,
      placeholder: 'e.g. ISO 27001',
      description: 'The framework or standard the document is for: a name or slug, for example a candidate from Framework → Suggest',
    },
    frameworkLocator({
      byNameToo: true,
      description: 'The framework or standard the document is for: a verified one from the list, or any name or slug (for example a candidate from Framework → Suggest)',
    }),
  ),
  {
    displayName: 'Document Type Name or ID',
    name: 'documentType',
    type: 'options',
    typeOptions: { loadOptionsMethod: 'getDocumentTypes' },
    default: 'framework_reference',
    hint: 'The kind of document to generate',
    description:
      'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
  },
  {
    displayName: 'Organisation',
    name: 'organisation',
    type: 'collection',
    placeholder: 'Add Organisation Detail',
    default: {},
    description: 'Personalises the document for an organisation',
    options: [
      { displayName: 'Country', name: 'country', type: 'string', default: '', placeholder: 'e.g. GB' },
      { displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: 'e.g. Acme Ltd' },
      { displayName: 'Sector', name: 'sector', type: 'string', default: '', placeholder: 'e.g. Healthcare' },
    ],
  },
  {
    displayName: 'Additional Fields',
    name: 'additionalFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    options: [
      { displayName: 'Company', name: 'company', type: 'string', default: '' },
      { displayName: 'Context', name: 'context', type: 'string', typeOptions: { rows: 4 }, default: '', description: 'Free-text context the document should reflect' },
      { displayName: 'Humanize', name: 'humanize', type: 'boolean', default: false, description: 'Whether to write in a plainer, more natural style' },
      { displayName: 'Jurisdiction', name: 'jurisdiction', type: 'string', default: '', placeholder: 'e.g. EU' },
      { displayName: 'Sector', name: 'sector', type: 'string', default: '' },
    ],
  },
  ...spendProperties('the generation'),
];

export const description: INodeProperties[] = [
  ...updateDisplayOptions(displayOptions, properties),
  ...(operations.generateDocument.createsJob ? waitProperties(displayOptions) : []),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const organisationFields = this.getNodeParameter('organisation', itemIndex, {}) as IDataObject;
  const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
  const organisation = compact({
    name: text(organisationFields.name, 'Organisation → Name'),
    sector: text(organisationFields.sector, 'Organisation → Sector'),
    country: text(organisationFields.country, 'Organisation → Country'),
  });
  const input = {
    ...compact({
      framework: locatorValue.call(this, 'framework', itemIndex, 'Framework'),
      type: text(this.getNodeParameter('documentType', itemIndex, ''), 'Document Type'),
      jurisdiction: text(fields.jurisdiction, 'Jurisdiction'),
      company: text(fields.company, 'Company'),
      sector: text(fields.sector, 'Sector'),
      context: text(fields.context, 'Context'),
    }),
    ...(Object.keys(organisation).length ? { organisation } : {}),
    ...(typeof fields.humanize === 'boolean' ? { humanize: fields.humanize } : {}),
  };
  return await spendOnce.call(this, itemIndex, client, 'generateDocument', 'Generate Document', input, () => submitJob.call(this, itemIndex, client, () => client.generateDocument(input)));
}
