import type { IDataObject, ILoadOptionsFunctions, INodeExecutionData, INodePropertyOptions, INodeType, INodeTypeBaseDescription, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { createClient } from '../../shared/client.js';
import { toNodeError } from '../../shared/errors.js';
import { verifiedFrameworkOptions } from '../../shared/frameworks.js';
import { detect, type TriggerEvent, type TriggerParameters, type TriggerState } from '../events.js';
import { versionDescription } from './versionDescription.js';

/** The cursor is kept under this key of the node's static data. */
export const STATE_KEY = 'complianceTrigger';

/**
 * Versions 1 and 2 of the Compliance Trigger, versioned as the action node: the versions' description
 * in its own file (versionDescription.ts), the node's identity (name, icon, subtitle, summary) in the
 * class, where n8n's strict lint reads it, and ComplianceTrigger.node.ts takes its base description
 * from it. 2: Framework Slugs became a multi-select of the verified frameworks; version 1 workflows
 * keep their text field.
 */
export class ComplianceTriggerV1 implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Compliance Trigger',
    name: 'complianceTrigger',
    icon: { light: 'file:compliance.svg', dark: 'file:compliance.dark.svg' },
    group: ['trigger'],
    subtitle: '={{ $parameter["event"] }}',
    description:
      'Starts a workflow when a compliance review is due, the token balance runs low, a framework publishes updates, or a library document changes',
    ...versionDescription,
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
