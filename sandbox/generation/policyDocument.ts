/**
 * A policy personalised for the organisation: purpose, scope, roles, the template's statements and
 * procedures, and the framework's controls most relevant to its topic, cited by identifier.
 */
import type { DocumentSection } from '../documentModel.js';
import type { Control, FrameworkEntry } from '../catalogue/index.js';
import { contentTokens, containsPhrase } from '../catalogue/text.js';
import { plainLanguage } from './plainLanguage.js';
import type { PolicyTemplate } from './policyTemplates.js';
import { groupControls, jurisdictionNote, type Voice, type WritingContext } from './writing.js';

/** At most this many controls are cited in a policy's statements. */
const MAX_CITED_CONTROLS = 16;

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

function controlStatement(control: Control, voice: Voice): string {
  return voice.plain
    ? `${control.title} (${control.id}): ${plainLanguage(control.description)}`
    : `${control.id} – ${control.title}. ${control.description}`;
}

function scopeParagraphs(ctx: WritingContext, base: string): string[] {
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

export function policyDocument(ctx: WritingContext, template: PolicyTemplate): DocumentSection[] {
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
