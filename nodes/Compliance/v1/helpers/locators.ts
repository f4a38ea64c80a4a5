/**
 * Resource locators (version 2 of the node) for the identifiers a user picks: a framework, a
 * library document, a job. Version 1 kept these as plain text; both are read by `locatorValue`,
 * so one execute serves both versions and old workflows run unchanged.
 */
import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { text } from './utils.js';

/** Shown on version 1 only (the old plain-text fields). */
const ONLY_V1: IDisplayOptions = { show: { '@version': [1] } };
/** Shown from version 2 on (the resource locators). */
const FROM_V2: IDisplayOptions = { show: { '@version': [{ _cnd: { gte: 2 } }] } };

function shown(property: INodeProperties, when: IDisplayOptions): INodeProperties {
  return { ...property, displayOptions: { ...property.displayOptions, show: { ...property.displayOptions?.show, ...when.show } } };
}

/** The version 1 field and its version 2 locator, under the same parameter name. */
export function versioned(v1: INodeProperties, v2: INodeProperties): INodeProperties[] {
  return [shown(v1, ONLY_V1), shown(v2, FROM_V2)];
}

const UUID_REGEX = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const ID_REGEX = '^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$';

const EXAMPLE_JOB_ID = '3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a';

export function frameworkLocator(options: { description: string; byNameToo?: boolean; name?: string }): INodeProperties {
  return {
    displayName: 'Framework',
    name: options.name ?? 'framework',
    type: 'resourceLocator',
    default: { mode: 'list', value: '' },
    required: true,
    description: options.description,
    modes: [
      {
        displayName: 'From List',
        name: 'list',
        type: 'list',
        placeholder: 'Select a framework...',
        typeOptions: { searchListMethod: 'searchFrameworks', searchable: true },
      },
      {
        displayName: options.byNameToo ? 'By Name or Slug' : 'By Slug',
        name: 'id',
        type: 'string',
        placeholder: options.byNameToo ? 'e.g. ISO 27001' : 'e.g. iso-27001',
        ...(options.byNameToo
          ? {}
          : { validation: [{ type: 'regex' as const, properties: { regex: ID_REGEX, errorMessage: 'Not a framework slug: use letters, digits and dashes, such as iso-27001' } }] }),
      },
    ],
  };
}

export const documentLocator: INodeProperties = {
  displayName: 'Document',
  name: 'documentId',
  type: 'resourceLocator',
  default: { mode: 'list', value: '' },
  required: true,
  description: 'The library document, from the list or by the ID Ingest, Get Many or Search returned',
  modes: [
    {
      displayName: 'From List',
      name: 'list',
      type: 'list',
      placeholder: 'Select a document...',
      typeOptions: { searchListMethod: 'searchLibraryDocuments', searchable: true },
    },
    {
      displayName: 'By ID',
      name: 'id',
      type: 'string',
      placeholder: 'e.g. doc_01HZX3',
      validation: [{ type: 'regex', properties: { regex: ID_REGEX, errorMessage: 'Not a document ID: letters, digits, dots, dashes or underscores' } }],
    },
  ],
};

export const jobLocator: INodeProperties = {
  displayName: 'Job',
  name: 'jobId',
  type: 'resourceLocator',
  default: { mode: 'id', value: '' },
  required: true,
  description: 'The job, by the ID Generate, Map, Ingest or Refresh returned',
  modes: [
    {
      displayName: 'By ID',
      name: 'id',
      type: 'string',
      placeholder: `e.g. ${EXAMPLE_JOB_ID}`,
      validation: [{ type: 'regex', properties: { regex: UUID_REGEX, errorMessage: `Not a job ID: a job ID is a UUID such as ${EXAMPLE_JOB_ID}` } }],
    },
  ],
};

/**
 * The value of a field that is plain text (version 1) or a resource locator (version 2):
 * `{ __rl: true, mode, value }` gives its `value`.
 */
export function locatorValue(this: IExecuteFunctions, name: string, itemIndex: number, label: string): string | undefined {
  const raw: unknown = this.getNodeParameter(name, itemIndex);
  const value = typeof raw === 'object' && raw !== null && !Array.isArray(raw) && 'value' in raw && '__rl' in raw ? (raw as { value: unknown }).value : raw;
  return text(value, label);
}
