/**
 * What both kinds of generated document share: the voice they are written in (the organisation's
 * name or, in plain language, "we"), the context of one request, and the paragraphs both use (the
 * controls grouped by family, the note when the jurisdiction does not fit the framework's).
 */
import type { Control, FrameworkEntry } from '../catalogue/index.js';
import { regionName } from '../catalogue/index.js';
import { recogniseJurisdictionField, regionFit } from '../catalogue/jurisdictions.js';
import { plainLanguage } from './plainLanguage.js';

export interface Voice {
  plain: boolean;
  orgName?: string;
  text(template: string): string;
}

export function voiceFor(orgName: string | undefined, plain: boolean): Voice {
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

export function clean(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

export interface WritingContext {
  framework: FrameworkEntry;
  voice: Voice;
  orgName?: string;
  sector?: string;
  jurisdiction?: string;
  context?: string;
  sandbox: boolean;
  generatedOn: string;
}

export function groupControls(controls: readonly Control[]): Array<[group: string, controls: Control[]]> {
  const groups: Array<[string, Control[]]> = [];
  for (const control of controls) {
    const last = groups[groups.length - 1];
    if (last && last[0] === control.group) last[1].push(control);
    else groups.push([control.group, [control]]);
  }
  return groups;
}

/** A note when the organisation's jurisdiction does not obviously fall under the framework's. */
export function jurisdictionNote(ctx: WritingContext): string | undefined {
  if (!ctx.jurisdiction) return undefined;
  const wanted = recogniseJurisdictionField(ctx.jurisdiction).codes;
  if (wanted.length === 0) return undefined;
  const fit = regionFit(ctx.framework.regions, wanted);
  if (fit !== 'none') return undefined;
  return ctx.voice.text(
    `${ctx.framework.shortName} applies in ${ctx.framework.jurisdiction}, while {org's} stated jurisdiction is ${ctx.jurisdiction} (${wanted.map(regionName).join(', ')}). It applies to {org} only where its territorial rules reach it, for example through an establishment, customers or contracts in ${ctx.framework.jurisdiction}; confirm this with legal counsel.`,
  );
}
