import type { IDataObject, ILoadOptionsFunctions, INodeExecutionData, INodePropertyOptions, INodeType, INodeTypeBaseDescription, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import { createClient } from '../../shared/client.js';
import { toNodeError } from '../../shared/errors.js';
import { verifiedFrameworkOptions } from '../../shared/frameworks.js';
import { detect, type TriggerEvent, type TriggerParameters, type TriggerState } from '../events.js';

/** The cursor is kept under this key of the node's static data. */
export const STATE_KEY = 'complianceTrigger';

/**
 * Versions 1 and 2 of the Compliance Trigger, versioned as the action node: the description written
 * once, here, and ComplianceTrigger.node.ts takes its base description from it. 2: Framework Slugs
 * became a multi-select of the verified frameworks; version 1 workflows keep their text field.
 */
export class ComplianceTriggerV1 implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Compliance Trigger',
    name: 'complianceTrigger',
    icon: { light: 'file:compliance.svg', dark: 'file:compliance.dark.svg' },
    group: ['trigger'],
    version: [1, 2],
    subtitle: '={{ $parameter["event"] }}',
    description:
      'Starts a workflow when a compliance review is due, the token balance runs low, a framework publishes updates, or a library document changes',
    defaults: { name: 'Compliance Trigger' },
    polling: true,
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'complianceApi', required: true }],
    properties: [
      {
        displayName: 'Event',
        name: 'event',
        type: 'options',
        options: [
          {
            name: 'Balance Low',
            value: 'balanceLow',
            description: 'The estimated days of token balance remaining fall under a threshold (once per dip)',
          },
          {
            name: 'Framework Updated',
            value: 'frameworkUpdated',
            description: 'A chosen framework lists a new dated update',
          },
          {
            name: 'Library Document Changed',
            value: 'libraryDocumentChanged',
            description: 'A library document was added, refreshed (new version or content) or removed',
          },
          {
            name: 'Review Due',
            value: 'reviewDue',
            description: 'The next review date of the review calendar has been reached',
          },
        ],
        default: 'reviewDue',
      },
      {
        displayName: 'Threshold (Days)',
        name: 'thresholdDays',
        type: 'number',
        typeOptions: { minValue: 0 },
        default: 7,
        description: 'Fire when the estimated days of balance remaining fall under this number',
        displayOptions: { show: { event: ['balanceLow'] } },
      },
      {
        displayName: 'Framework Slugs',
        name: 'frameworks',
        type: 'string',
        default: '',
        required: true,
        placeholder: 'e.g. gdpr, iso-27001',
        description: 'Comma-separated slugs of the frameworks to watch. The first poll records their current updates; later ones fire for new updates.',
        displayOptions: { show: { event: ['frameworkUpdated'], '@version': [1] } },
      },
      {
        displayName: 'Framework Names or IDs',
        name: 'frameworks',
        type: 'multiOptions',
        typeOptions: { loadOptionsMethod: 'getVerifiedFrameworks' },
        default: [],
        required: true,
        description:
          'The frameworks to watch; the first poll records their current updates. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
        displayOptions: { show: { event: ['frameworkUpdated'], '@version': [{ _cnd: { gte: 2 } }] } },
      },
      {
        displayName: 'Category',
        name: 'category',
        type: 'string',
        default: '',
        description: 'Only watch documents of this library category. The first poll records the library; later ones fire for changes.',
        displayOptions: { show: { event: ['libraryDocumentChanged'] } },
      },
    ],
  };

  /** With the versioned node's base description (ComplianceTrigger.node.ts builds it from this one). */
  constructor(baseDescription?: INodeTypeBaseDescription) {
    if (baseDescription) this.description = { ...baseDescription, ...this.description };
  }

  methods = {
    loadOptions: {
      async getVerifiedFrameworks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
        return await verifiedFrameworkOptions(this);
      },
    },
  };

  async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
    const event = this.getNodeParameter('event') as TriggerEvent;
    const parameters: TriggerParameters = { event };
    if (event === 'balanceLow') parameters.thresholdDays = this.getNodeParameter('thresholdDays', 7) as number;
    if (event === 'frameworkUpdated') {
      const chosen: unknown = this.getNodeParameter('frameworks', '');
      parameters.frameworks = (Array.isArray(chosen) ? chosen.map(String) : String(chosen).split(','))
        .map((slug) => slug.trim())
        .filter(Boolean);
      if (!parameters.frameworks.length) {
        throw new NodeOperationError(this.getNode(), 'No framework is chosen to watch', { description: 'Choose at least one framework in Framework Names or IDs (in older versions of this node: enter a slug such as gdpr in Framework Slugs).' });
      }
    }
    if (event === 'libraryDocumentChanged') {
      const category = String(this.getNodeParameter('category', '')).trim();
      if (category) parameters.category = category;
    }

    const staticData = this.getWorkflowStaticData('node');
    // A plain copy: n8n's static data is an observed object (a Proxy) that structuredClone refuses.
    const saved = JSON.parse(JSON.stringify(staticData[STATE_KEY] ?? {})) as TriggerState;
    const manual = this.getMode() === 'manual';
    let result;
    try {
      result = await detect(await createClient(this), saved, parameters, Date.now());
    } catch (error) {
      throw toNodeError(this.getNode(), error);
    }

    if (manual) {
      // "Fetch Test Event": show what would fire, or the latest event, and leave the cursor alone.
      const items = result.events.length ? result.events : result.sample ? [result.sample] : [];
      if (!items.length && result.emptyBecause) {
        // Without this, n8n shows "No trigger output" and the user cannot tell why.
        throw new NodeOperationError(this.getNode(), result.emptyBecause.message, { description: result.emptyBecause.fix });
      }
      return items.length ? [this.helpers.returnJsonArray(items as IDataObject[])] : null;
    }
    // Saved in one step after every request succeeded, so a failed poll changes nothing.
    staticData[STATE_KEY] = result.state as IDataObject;
    return result.events.length ? [this.helpers.returnJsonArray(result.events as IDataObject[])] : null;
  }
}
