/**
 * Evidence mapping of a text against a control set, by what each sentence says rather than by its
 * exact phrasing (sandbox/README.md, "How the mapping decides").
 *
 * Sentences (list items, table rows) and controls are both read as concept terms: Porter stems, with
 * every phrase of a synonym group folded into one concept (concepts.ts), so "one-time code from the
 * authenticator app" and "multi-factor authentication" meet. A control's terms come from its keywords,
 * title, paraphrases and description, weighted by how specific they are within the control set
 * (controlWeights.ts). A sentence's strength for a control is the weight of the control's terms it
 * names (terms only its section heading names count HEADING_FACTOR) relative to the control's
 * reference, capped at MAX_STRENGTH; stating one of its paraphrases in full is INTENT_STRENGTH. It
 * needs two of the control's ideas, one of them a main idea. A sentence evidences a control from
 * THIN_STRENGTH (thin, half credit) or QUALIFYING_STRENGTH when the control is among the
 * MAX_CONTROLS_PER_SENTENCE it speaks to most (within RIVAL_RATIO of its best, or within TIE_RATIO
 * whatever the rank): a sentence about passwords is evidence for the password control, not for every
 * control that mentions users. The control's best MAX_EVIDENCE_PER_CONTROL sentences are its
 * evidence; its score is the larger of the weight of the distinct terms they name over FULL_EVIDENCE
 * times the reference and its best sentence's strength (capped at 1). Everything a control's result
 * depends on is its own evidence sentences and the fixed control set, so removing text that evidences
 * nothing for a control cannot change it. Deterministic.
 */
import { isLiteral } from './concepts.js';
import { GENERIC_TERMS, weightControls, type WeightedControl } from './controlWeights.js';
import { readText, type EvidenceUnit } from './evidenceUnits.js';
import { describeNamed, type MentionIndex } from './mentions.js';
import type { ControlResult, ControlStatus, MappingGap, MapTextInput, MappingResult } from './types.js';

/** Score at or above which a control counts as covered. */
const COVERED_THRESHOLD = 0.6;
/** Score at or above which a control counts as partial. */
const PARTIAL_THRESHOLD = 0.25;
/** Evidence sentences per control that are scored and quoted. */
const MAX_EVIDENCE_PER_CONTROL = 3;
/** Strength (share of the control's reference weight) a sentence needs to count as evidence. */
const QUALIFYING_STRENGTH = 0.8;
/** Strength from which a sentence is thin evidence: it counts THIN_FACTOR of its weight (at most partial). */
const THIN_STRENGTH = 0.7;
const THIN_FACTOR = 0.5;
/** Controls one sentence can evidence. */
const MAX_CONTROLS_PER_SENTENCE = 2;
/** A sentence evidences a control only if its strength there is at least this share of its best. */
const RIVAL_RATIO = 0.9;
/** Controls this close to a sentence's best are evidenced by it whatever their rank. */
const TIE_RATIO = 0.97;
/** Weight of a term named only by the sentence's section heading. */
const HEADING_FACTOR = 0.5;
/** Multiple of the reference weight the evidence must name for a score of 1. */
const FULL_EVIDENCE = 1;
/** Highest strength a sentence can have for a control. */
const MAX_STRENGTH = 1.2;
/** Strength of a sentence that states one of a control's paraphrases in full. */
const INTENT_STRENGTH = 1;
/** Score of a control whose only evidence delegates it to a provider: partial. */
const DELEGATED_SCORE = 0.5;
/** Terms a delegation uses to name who it hands the control to, not what it hands over. */
const DELEGATE_TERMS: ReadonlySet<string> = new Set(['#supplier', '#cloud']);
/** Uncovered key terms named in a gap. */
const GAP_TERMS = 5;

interface Match {
  unit: EvidenceUnit;
  /** Terms of the control the sentence (or its heading) names, with the credit each earns. */
  credit: Map<string, number>;
  strength: number;
}

/** Maps a text against a framework's controls: coverage, per-control status and evidence, gaps. */
export function mapText(input: MapTextInput): MappingResult {
  const { units, mentions } = readText(input.text);
  const weighted = weightControls(input.framework.controls);
  const evidence = evidenceByControl(units, weighted);

  const controls: ControlResult[] = [];
  const gaps: MappingGap[] = [];
  weighted.forEach((control, index) => {
    const { result, covered } = assess(control, evidence[index] ?? []);
    controls.push(result);
    if (result.status !== 'covered') gaps.push(gapOf(control, result, covered, mentions));
  });

  const count = (status: ControlStatus): number => controls.filter((c) => c.status === status).length;
  const summary = { controls: controls.length, covered: count('covered'), partial: count('partial'), missing: count('missing') };
  const coverage = controls.length ? Math.round(((summary.covered + summary.partial / 2) / controls.length) * 1000) / 10 : 0;
  return {
    framework: { slug: input.framework.slug, name: input.framework.name, version: input.framework.version },
    ...(input.title !== undefined ? { title: input.title } : {}),
    coverage,
    summary,
    controls,
    gaps,
  };
}

/** For each control (by index), the sentences that evidence it. */
function evidenceByControl(units: readonly EvidenceUnit[], controls: readonly WeightedControl[]): Match[][] {
  const byTerm = new Map<string, number[]>();
  controls.forEach((control, index) => {
    for (const term of control.terms.keys()) {
      const list = byTerm.get(term);
      if (list) list.push(index);
      else byTerm.set(term, [index]);
    }
  });
  const evidence: Match[][] = controls.map(() => []);
  for (const unit of units) {
    const candidates = new Map<number, Match>();
    let named = new Map<number, number>();
    const visit = (term: string, factor: number, own: boolean): void => {
      for (const index of byTerm.get(term) ?? []) {
        let match = candidates.get(index);
        if (!match) candidates.set(index, (match = { unit, credit: new Map(), strength: 0 }));
        match.credit.set(term, controls[index]!.terms.get(term)! * factor);
        if (own && !isLiteral(term)) named.set(index, (named.get(index) ?? 0) + 1);
      }
    };
    for (const term of unit.terms) visit(term, 1, true);
    for (const term of unit.headingTerms) visit(term, HEADING_FACTOR, false);
    const qualified: Array<[number, Match]> = [];
    for (const [index, match] of candidates) {
      if ((named.get(index) ?? 0) < 1) continue;
      const control = controls[index]!;
      const total = [...match.credit.values()].reduce((s, w) => s + w, 0);
      const says = (term: string): boolean => unit.terms.has(term) || unit.headingTerms.has(term);
      const plainly = (term: string): boolean => says(term) && !unit.ambiguous.has(term);
      // A sentence stating one of the control's paraphrases in full speaks to it squarely.
      // An ambiguous word may complete it ("the yearly review" of "policy reviewed annually") but is
      // never one of the two ideas it rests on.
      const intent = control.intents.find(
        (terms) => terms.every(says) && terms.some((t) => unit.terms.has(t)) && terms.filter(plainly).length >= Math.min(2, terms.length),
      );
      // An ambiguous word standing alone ("conduct", "critical") adds weight but is never one of the
      // ideas, nor the main one: it cannot make a sentence evidence on its own.
      let ideas = 0;
      for (const t of match.credit.keys()) if (isIdea(unit, t)) ideas++;
      // Words only the control's description uses ("create, receive, maintain or transmit") are not enough.
      const main = [...unit.terms].some((t) => control.main.has(t) && isIdea(unit, t));
      // Capped: past "names the control's main ideas" a longer sentence is not more about it.
      match.strength = Math.min(MAX_STRENGTH, Math.max(ideas < 2 || !main ? 0 : total / control.reference, intent ? INTENT_STRENGTH : 0));
      // Handing a control to a provider names what is handed over, often in one idea ("physical
      // security of data centers"): one specific idea is enough for the delegation to be its
      // (partial) evidence; "security" alone is not.
      if (unit.delegated && [...unit.terms].some((t) => control.main.has(t) && isIdea(unit, t) && !GENERIC_TERMS.has(t))) match.strength = Math.max(match.strength, QUALIFYING_STRENGTH);
      if (match.strength >= THIN_STRENGTH) qualified.push([index, match]);
    }
    named = new Map();
    qualified.sort((a, b) => b[1].strength - a[1].strength || a[0] - b[0]);
    const best = qualified[0]?.[1].strength ?? 0;
    qualified.forEach(([index, match], rank) => {
      // Near-twins (a HIPAA standard and its implementation specification) tie rather than compete;
      // a delegation hands over everything it names.
      const near = match.strength >= TIE_RATIO * best || unit.delegated;
      if (near || (rank < MAX_CONTROLS_PER_SENTENCE && match.strength >= RIVAL_RATIO * best)) evidence[index]!.push(match);
    });
  }
  return evidence;
}

/** Whether a term of the sentence is one of its ideas: not an exact wording, an ambiguous word alone, or who a delegation names. */
function isIdea(unit: EvidenceUnit, term: string): boolean {
  return !isLiteral(term) && !unit.ambiguous.has(term) && !(unit.delegated && DELEGATE_TERMS.has(term));
}

function assess(weighted: WeightedControl, matches: readonly Match[]): { result: ControlResult; covered: Set<string> } {
  const evidence = [...matches]
    .sort((a, b) => b.strength - a.strength || a.unit.order - b.unit.order)
    .slice(0, MAX_EVIDENCE_PER_CONTROL)
    .sort((a, b) => a.unit.order - b.unit.order);
  const credit = new Map<string, number>();
  const focus = (e: Match): number => (e.strength >= QUALIFYING_STRENGTH ? 1 : THIN_FACTOR);
  for (const e of evidence) for (const [t, w] of e.credit) credit.set(t, Math.max(credit.get(t) ?? 0, w * focus(e)));
  const covered = new Set(credit.keys());
  const coveredWeight = [...credit.values()].reduce((s, w) => s + w, 0);
  const full = FULL_EVIDENCE * weighted.reference;
  // A paraphrase stated in full counts as its strength even when its terms are light ones.
  const best = evidence.reduce((m, e) => Math.max(m, e.strength * focus(e)), 0);
  let score = full > 0 ? Math.min(1, Math.max(coveredWeight / full, best / FULL_EVIDENCE)) : 0;
  // Evidenced only by statements delegating it to a provider: partial, the delegation quoted.
  if (evidence.length && evidence.every((e) => e.unit.delegated)) score = Math.min(Math.max(score, PARTIAL_THRESHOLD), DELEGATED_SCORE);
  score = Math.round(score * 1000) / 1000;
  const status: ControlStatus = score >= COVERED_THRESHOLD ? 'covered' : score >= PARTIAL_THRESHOLD ? 'partial' : 'missing';
  const { id, title } = weighted.control;
  return {
    result: { id, title, status, score, evidence: evidence.map((e) => ({ quote: e.unit.text, location: { ...e.unit.location } })) },
    covered,
  };
}

/**
 * A gap in words that never contradict the text: the key terms no evidence covers, split into those
 * the text names somewhere (said as named, where and why that is not enough: mentions.ts) and those
 * it names nowhere (said as absent).
 */
function gapOf(weighted: WeightedControl, result: ControlResult, covered: ReadonlySet<string>, mentions: MentionIndex): MappingGap {
  const { id, title, description } = weighted.control;
  const uncovered = weighted.keywords
    .filter((k) => !k.terms.some((t) => covered.has(t)))
    .sort((a, b) => b.weight - a.weight)
    .slice(0, GAP_TERMS);
  const listed = uncovered.length ? uncovered : weighted.keywords.slice(0, GAP_TERMS);
  const named = listed.flatMap((k) => mentions.find(k.keyword) ?? []);
  const absent = listed.filter((k) => !named.some((n) => n.keyword === k.keyword)).map((k) => k.keyword);
  const requirement = /[.!?]$/.test(description.trim()) ? description.trim() : `${description.trim()}.`;
  const status = result.status === 'partial' ? 'partial' : 'missing';
  const first = result.evidence[0]?.location;
  const where = first ? `${first.source ? `${first.source}, ` : ''}line ${first.line}` : '';
  const namedLine = named.length ? ` Named, but not enough: ${named.map(describeNamed).join('; ')}.` : '';
  const missing = result.evidence.length
    ? `Evidence is too thin.${namedLine}${absent.length ? ` Nothing covers: ${absent.join(', ')}.` : ''}`
    : named.length
      ? `No statement in the text meets this control.${namedLine}${absent.length ? ` No statement on: ${absent.join(', ')}.` : ''}`
      : `Nothing in the text addresses this control; no statement on: ${absent.join(', ')}.`;
  // Name what the text lacks; what it names already is to be stated as done.
  const ask = [
    absent.length ? `${status === 'partial' ? 'Address' : 'Name'} ${quoteList(absent.slice(0, 3))} explicitly.` : '',
    named.length ? `State what is done about ${quoteList(named.slice(0, 3).map((n) => n.keyword))}.` : '',
  ].filter(Boolean).join(' ');
  return {
    controlId: id,
    title,
    status,
    missing,
    recommendation:
      status === 'partial'
        ? `Extend the statement at ${where} so it fully meets ${id} (${title}): ${requirement} ${ask}`
        : `Add a policy statement or procedure that meets ${id} (${title}): ${requirement} ${ask}`,
  };
}

function quoteList(terms: readonly string[]): string {
  const quoted = terms.map((t) => `"${t}"`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}
