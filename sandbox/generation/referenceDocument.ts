/**
 * A reference guide to the framework: overview, regulator and source, applicability to the
 * organisation, every control by family (or the topics of a reference-only entry), recent updates.
 */
import type { DocumentSection } from '../documentModel.js';
import { plainLanguage } from './plainLanguage.js';
import { groupControls, jurisdictionNote, type WritingContext } from './writing.js';

/** The reference guide's sections. */
export function referenceDocument(ctx: WritingContext): DocumentSection[] {
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
