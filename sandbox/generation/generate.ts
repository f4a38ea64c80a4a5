/**
 * Builds the document model of a generation job: a framework reference or a policy personalised for
 * the organisation, citing the framework's relevant controls. Deterministic: the same input always
 * gives the same document (the only date is the caller's `generatedOn`).
 */
import type { DocumentModel, DocumentSection } from '../documentModel.js';
import type { FrameworkEntry } from '../catalogue/index.js';
import { policyDocument } from './policyDocument.js';
import { POLICY_TEMPLATES } from './policyTemplates.js';
import { referenceDocument } from './referenceDocument.js';
import { SANDBOX_WATERMARK } from './watermark.js';
import { clean, voiceFor, type WritingContext } from './writing.js';

interface DocumentTypeInfo {
  id: string;
  title: string;
  description: string;
}

const FRAMEWORK_REFERENCE: DocumentTypeInfo = {
  id: 'framework_reference',
  title: 'Framework Reference',
  description: 'A reference guide to the framework: overview, regulator and source, applicability, control families with every control, and recent updates.',
};

export const documentTypes: readonly DocumentTypeInfo[] = Object.freeze([
  FRAMEWORK_REFERENCE,
  ...POLICY_TEMPLATES.map(({ id, title, description }) => ({ id, title, description })),
]);

export interface GenerationInput {
  framework: FrameworkEntry;
  type: string;
  organisation?: { name?: string; sector?: string; country?: string };
  company?: string;
  sector?: string;
  jurisdiction?: string;
  context?: string;
  humanize?: boolean;
  mode: 'sandbox' | 'live';
  /** YYYY-MM-DD */
  generatedOn: string;
}

function sandboxSection(): DocumentSection {
  return {
    heading: 'Sandbox sample',
    paragraphs: [
      `${SANDBOX_WATERMARK}. This document is deterministic sample output from the compliance API sandbox, produced to demonstrate the shape of generated documents. It is not legal advice and must not be used as a policy or as evidence of compliance without review by a qualified person.`,
    ],
  };
}

/** Builds the document for a generation request. Throws for an unknown document type. */
export function generateDocumentModel(input: GenerationInput): DocumentModel {
  const framework = input.framework;
  const orgName = clean(input.organisation?.name) ?? clean(input.company);
  const sector = clean(input.organisation?.sector) ?? clean(input.sector);
  const jurisdiction = clean(input.jurisdiction) ?? clean(input.organisation?.country);
  const plain = input.humanize === true;
  const sandbox = input.mode === 'sandbox';
  const ctx: WritingContext = {
    framework,
    voice: voiceFor(orgName, plain),
    orgName,
    sector,
    jurisdiction,
    context: clean(input.context),
    sandbox,
    generatedOn: input.generatedOn,
  };

  let title: string;
  let typeTitle: string;
  let sections: DocumentSection[];
  if (input.type === FRAMEWORK_REFERENCE.id) {
    typeTitle = FRAMEWORK_REFERENCE.title;
    title = `${framework.shortName} ${FRAMEWORK_REFERENCE.title}${orgName ? ` – ${orgName}` : ''}`;
    sections = referenceDocument(ctx);
  } else {
    const template = POLICY_TEMPLATES.find((t) => t.id === input.type);
    if (!template) {
      throw new Error(`unknown document type "${input.type}"; known: ${documentTypes.map((d) => d.id).join(', ')}`);
    }
    typeTitle = template.title;
    title = `${template.title}${orgName ? ` – ${orgName}` : ''}`;
    sections = policyDocument(ctx, template);
  }
  if (sandbox) sections.unshift(sandboxSection());

  const meta: Array<[string, string]> = [
    ['Framework', `${framework.name} (${framework.version})`],
    ['Document type', typeTitle],
    ['Organisation', orgName ?? 'Not specified'],
    ['Sector', sector ?? 'Not specified'],
    ['Jurisdiction', jurisdiction ?? framework.jurisdiction],
    ['Version', '1.0 (draft)'],
    ['Generated', input.generatedOn],
  ];
  if (plain) meta.push(['Style', 'Plain language']);

  return {
    title,
    subtitle: sandbox ? `Sandbox sample – prepared against ${framework.shortName}` : `Prepared against ${framework.shortName}`,
    ...(sandbox ? { watermark: SANDBOX_WATERMARK } : {}),
    meta,
    sections,
  };
}

