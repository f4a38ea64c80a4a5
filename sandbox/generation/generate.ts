/**
 * Builds the document model of a generation job: a framework reference or a policy personalised for
 * the organisation, citing the framework's relevant controls. Deterministic: the same input always
 * gives the same document (the only date is the caller's `generatedOn`).
 */
import type { DocumentModel, DocumentSection } from '../documentModel.js';
import { regionName, type Control, type FrameworkEntry } from '../catalogue/index.js';
import { recogniseJurisdictionField, regionFit } from '../catalogue/jurisdictions.js';
import { contentTokens, containsPhrase } from '../catalogue/text.js';
import { plainLanguage } from './plainLanguage.js';
import { POLICY_TEMPLATES, type PolicyTemplate } from './policyTemplates.js';
import { SANDBOX_WATERMARK } from './watermark.js';

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

/** At most this many controls are cited in a policy's statements. */
const MAX_CITED_CONTROLS = 16;

interface Voice {
  plain: boolean;
  orgName?: string;
  text(template: string): string;
}

function voiceFor(orgName: string | undefined, plain: boolean): Voice {
  return {
    plain,
    orgName,
    text(template: string): string {
      const name = orgName ?? 'the Organisation';
      const Name = orgName ?? 'The Organisation';
      let out = template
        .replaceAll("{org's}", plain ? 'our' : `${name}'s`)
        .replaceAll('{Org}', plain ? 'We' : Name)
        .replaceAll('{we}', plain ? 'we' : name)
        .replaceAll('{org}', plain ? 'us' : name);
      if (plain) out = plainLanguage(out);
      return out;
    },
  };
}

function clean(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

/** Scores how relevant a control is to a policy's focus terms. */
function relevance(control: Control, focus: readonly string[]): number {
  const title = contentTokens(control.title);
  const keywords = control.keywords.map(contentTokens);
  const description = contentTokens(control.description);
  const group = contentTokens(control.group);
  let score = 0;
  for (const term of focus) {
    const t = contentTokens(term);
    if (t.length === 0) continue;
    if (containsPhrase(title, t)) score += 3;
    if (keywords.some((k) => containsPhrase(k, t))) score += 2;
    if (containsPhrase(description, t)) score += 1;
    if (containsPhrase(group, t)) score += 1;
  }
  return score;
}

/** The framework's controls most relevant to a policy, in the framework's own order. */
function relevantControls(framework: FrameworkEntry, template: PolicyTemplate): Control[] {
  const controls = framework.controls ?? [];
  const ranked = controls
    .map((control, order) => ({ control, order, score: relevance(control, template.focus) }))
    .filter((r) => r.score >= 3)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, MAX_CITED_CONTROLS)
    .sort((a, b) => a.order - b.order);
  return ranked.map((r) => r.control);
}

function groupControls(controls: readonly Control[]): Array<[group: string, controls: Control[]]> {
  const groups: Array<[string, Control[]]> = [];
  for (const control of controls) {
    const last = groups[groups.length - 1];
    if (last && last[0] === control.group) last[1].push(control);
    else groups.push([control.group, [control]]);
  }
  return groups;
}

function controlStatement(control: Control, voice: Voice): string {
  return voice.plain
    ? `${control.title} (${control.id}): ${plainLanguage(control.description)}`
    : `${control.id} – ${control.title}. ${control.description}`;
}

interface Context {
  framework: FrameworkEntry;
  voice: Voice;
  orgName?: string;
  sector?: string;
  jurisdiction?: string;
  context?: string;
  sandbox: boolean;
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

/** A note when the organisation's jurisdiction does not obviously fall under the framework's. */
function jurisdictionNote(ctx: Context): string | undefined {
  if (!ctx.jurisdiction) return undefined;
  const wanted = recogniseJurisdictionField(ctx.jurisdiction).codes;
  if (wanted.length === 0) return undefined;
  const fit = regionFit(ctx.framework.regions, wanted);
  if (fit !== 'none') return undefined;
  return ctx.voice.text(
    `${ctx.framework.shortName} applies in ${ctx.framework.jurisdiction}, while {org's} stated jurisdiction is ${ctx.jurisdiction} (${wanted.map(regionName).join(', ')}). It applies to {org} only where its territorial rules reach it, for example through an establishment, customers or contracts in ${ctx.framework.jurisdiction}; confirm this with legal counsel.`,
  );
}

function scopeParagraphs(ctx: Context, base: string): string[] {
  const { voice } = ctx;
  const paragraphs = [voice.text(base)];
  if (ctx.sector) {
    paragraphs.push(
      voice.text(
        `Sector: {org's} operations are in the ${ctx.sector} sector; read the statements below with the risks and obligations typical of that sector.`,
      ),
    );
  }
  if (ctx.jurisdiction) {
    paragraphs.push(
      voice.text(
        `Jurisdiction: {org's} operations are subject to the law of ${ctx.jurisdiction}. This document follows ${ctx.framework.shortName} (${ctx.framework.jurisdiction}).`,
      ),
    );
  }
  const note = jurisdictionNote(ctx);
  if (note) paragraphs.push(note);
  if (ctx.context) paragraphs.push(`Organisational context: ${ctx.context}`);
  return paragraphs;
}

function policyDocument(ctx: Context, template: PolicyTemplate): DocumentSection[] {
  const { framework, voice } = ctx;
  const sections: DocumentSection[] = [];
  const cited = relevantControls(framework, template);

  sections.push({
    heading: '1. Purpose',
    paragraphs: [
      voice.text(template.purpose),
      voice.text(
        `It supports {org's} compliance with ${framework.name} (${framework.shortName}), issued by ${framework.regulator}.`,
      ),
    ],
  });
  sections.push({ heading: '2. Scope', paragraphs: scopeParagraphs(ctx, template.scope) });
  sections.push({
    heading: '3. Roles and responsibilities',
    paragraphs: [voice.text('The following roles carry out this document. One person may hold more than one role.')],
    table: [['Role', 'Responsibility'], ...template.roles.map(([role, duty]) => [role, voice.text(duty)])],
  });

  sections.push({
    heading: '4. Policy statements',
    paragraphs: [voice.text('The following statements are mandatory for everyone in scope.')],
    bullets: template.statements.map((s) => voice.text(s)),
  });
  if (cited.length > 0) {
    groupControls(cited).forEach(([group, controls], i) => {
      sections.push({
        heading: `4.${i + 1} ${framework.shortName}: ${group}`,
        paragraphs: [
          voice.text(`To meet ${framework.shortName}, {we} shall also meet the following requirements, cited by control identifier.`),
        ],
        bullets: controls.map((c) => controlStatement(c, voice)),
      });
    });
  } else {
    sections.push({
      heading: `4.1 ${framework.shortName} requirements`,
      paragraphs: [
        voice.text(
          framework.controls
            ? `None of the ${framework.shortName} controls is specific to this policy's topic; the statements above cover its general expectations.`
            : `The sandbox catalogue does not hold a verified control set for ${framework.shortName}, so the statements above follow common practice for its scope. Confirm them against the official text at ${framework.sourceUrl}.`,
        ),
      ],
      bullets: framework.controls ? undefined : framework.topics.slice(0, 8).map((t) => `Relevant topic: ${t}`),
    });
  }

  sections.push({
    heading: '5. Procedures',
    paragraphs: [voice.text('The following procedures put this document into practice. Detailed work instructions are kept by the process owners.')],
    bullets: template.procedures.map((p) => voice.text(p)),
  });
  sections.push({
    heading: '6. Exceptions and enforcement',
    paragraphs: [
      voice.text(
        'Exceptions to this document shall be requested in writing, risk-assessed by the Information Security Officer, approved by the document owner and recorded in the exception register with an expiry date of no more than twelve months.',
      ),
      voice.text('Failure to comply with this document may result in disciplinary action in accordance with HR procedures, and in termination of contracts for third parties.'),
    ],
  });
  sections.push({
    heading: '7. Review and approval',
    paragraphs: [
      voice.text(
        `This document shall be reviewed ${template.reviewCycle}, and whenever ${framework.shortName}, the law or {org's} operations change significantly.`,
      ),
    ],
    table: [
      ['Version', 'Date', 'Change', 'Approved by'],
      ['1.0', ctx.generatedOn, 'Initial version generated', '(pending approval)'],
    ],
  });
  if (cited.length > 0) {
    sections.push({
      heading: `8. ${framework.shortName} mapping`,
      paragraphs: [voice.text('Controls this document helps to evidence.')],
      table: [['Control', 'Title', 'Group'], ...cited.map((c) => [c.id, c.title, c.group])],
    });
  }
  return sections;
}

function referenceDocument(ctx: Context): DocumentSection[] {
  const { framework, voice } = ctx;
  const sections: DocumentSection[] = [];
  sections.push({
    heading: '1. Overview',
    paragraphs: [framework.description, `Who it applies to: ${framework.appliesTo}`],
  });
  sections.push({
    heading: '2. Regulator and official source',
    paragraphs: [`${framework.shortName} is issued or enforced by ${framework.regulator}.`],
    table: [
      ['Field', 'Value'],
      ['Name', framework.name],
      ['Regulator / issuer', framework.regulator],
      ['Jurisdiction', framework.jurisdiction],
      ['Sector', framework.sector],
      ['Version', framework.version],
      ['Official source', framework.sourceUrl],
      ['Verified control set', framework.controls ? `Yes, ${framework.controls.length} controls` : 'No (reference only)'],
    ],
  });
  const applicability = [voice.text(`${framework.appliesTo}`)];
  if (ctx.orgName || ctx.sector || ctx.jurisdiction) {
    const who = ctx.orgName ?? 'the organisation';
    const facts = [ctx.sector && `operates in the ${ctx.sector} sector`, ctx.jurisdiction && `is subject to the law of ${ctx.jurisdiction}`]
      .filter(Boolean)
      .join(' and ');
    applicability.push(
      voice.text(
        `${ctx.voice.plain ? 'For us' : `For ${who}`}${facts ? `, which ${facts}` : ''}: assess whether the activities above are carried out, record the decision and its reasons, and revisit it when the business changes.`,
      ),
    );
  }
  const note = jurisdictionNote(ctx);
  if (note) applicability.push(note);
  if (ctx.context) applicability.push(`Organisational context: ${ctx.context}`);
  sections.push({ heading: '3. Applicability', paragraphs: applicability });

  if (framework.controls && framework.controls.length > 0) {
    const groups = groupControls(framework.controls);
    sections.push({
      heading: '4. Control families',
      paragraphs: [`${framework.shortName} has ${framework.controls.length} controls in ${groups.length} families.`],
      table: [['Family', 'Controls'], ...groups.map(([group, controls]) => [group, String(controls.length)])],
    });
    groups.forEach(([group, controls], i) => {
      sections.push({
        heading: `4.${i + 1} ${group}`,
        paragraphs: [],
        table: [
          ['ID', 'Title', 'Description'],
          ...controls.map((c) => [c.id, c.title, voice.plain ? plainLanguage(c.description) : c.description]),
        ],
      });
    });
  } else {
    sections.push({
      heading: '4. Scope and key topics',
      paragraphs: [
        `The sandbox catalogue holds ${framework.shortName} as a reference entry without a verified control set. Its main topics are listed below; consult the official source for the full requirements.`,
      ],
      bullets: framework.topics.map((t) => t),
    });
  }
  sections.push({
    heading: '5. Recent updates',
    paragraphs: ['Milestones, newest first.'],
    table: [
      ['Date', 'Update', 'Summary'],
      ...[...framework.updates].reverse().map((u) => [u.date, u.title, u.url ? `${u.summary} (${u.url})` : u.summary]),
    ],
  });
  sections.push({
    heading: '6. Using this reference',
    paragraphs: [],
    bullets: [
      'Confirm applicability and record the decision (section 3).',
      framework.verified
        ? `Map your policies against the ${framework.controls?.length ?? 0} controls with the mapping operation to find gaps.`
        : 'Identify the requirements that apply from the official source and assign owners.',
      'Generate or update the policies the framework expects (information security, access control, incident response and others).',
      'Review this reference when the framework publishes updates (section 5).',
    ].map((b) => voice.text(b)),
  });
  return sections;
}

/** Builds the document for a generation request. Throws for an unknown document type. */
export function generateDocumentModel(input: GenerationInput): DocumentModel {
  const framework = input.framework;
  const orgName = clean(input.organisation?.name) ?? clean(input.company);
  const sector = clean(input.organisation?.sector) ?? clean(input.sector);
  const jurisdiction = clean(input.jurisdiction) ?? clean(input.organisation?.country);
  const plain = input.humanize === true;
  const sandbox = input.mode === 'sandbox';
  const ctx: Context = {
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

