/**
 * Evidence mapping of a text against a control set.
 *
 * For each control, every sentence (list item, table row) is scored by the summed weight of the
 * control's keywords it contains (Porter stems, a multi-word keyword's words close together; weights
 * from controlWeights.ts). A sentence evidences the control when it carries at least QUALIFYING_SHARE
 * of the control's total keyword weight and either two keywords or one multi-word keyword: a single
 * ambiguous word ("isolate", "evaluation") is not evidence on its own. The control's best MAX_EVIDENCE_PER_CONTROL sentences are its evidence; its score
 * is the weight of the distinct keywords they cover relative to FULL_EVIDENCE_SHARE of the total
 * (capped at 1). Status follows from the score. So a control's result depends only on its own
 * evidence sentences: removing text that evidences nothing for a control cannot change it.
 */
import { weightControls, type WeightedControl, type WeightedKeyword } from './controlWeights.js';
import { evidenceUnits, type EvidenceUnit } from './evidenceUnits.js';
import type { ControlResult, ControlStatus, MappingGap, MapTextInput, MappingResult } from './types.js';

/** Score at or above which a control counts as covered. */
export const COVERED_THRESHOLD = 0.6;
/** Score at or above which a control counts as partial. */
export const PARTIAL_THRESHOLD = 0.25;
/** Evidence sentences per control that are scored and quoted. */
export const MAX_EVIDENCE_PER_CONTROL = 3;
/** Share of a control's keyword weight one sentence must carry to count as evidence. */
const QUALIFYING_SHARE = 0.12;
/** Share of a control's keyword weight its evidence must cover for a score of 1. */
const FULL_EVIDENCE_SHARE = 0.5;
/** Credit for keywords of a sentence that names only one of the control's keywords (a passing mention). */
const SINGLE_MENTION_FACTOR = 0.5;
/** Words that may stand between the words of a multi-word keyword ("access to ePHI is reviewed" matches "access review"). */
const PHRASE_SLACK = 2;
/** Uncovered key terms named in a gap. */
const GAP_TERMS = 5;

interface ScoredUnit {
  unit: EvidenceUnit;
  matched: WeightedKeyword[];
  /** 1 for a sentence with two or more keywords, SINGLE_MENTION_FACTOR for a passing mention. */
  focus: number;
  strength: number;
}

/** Maps a text against a framework's controls: coverage, per-control status and evidence, gaps. */
export function mapText(input: MapTextInput): MappingResult {
  const units = evidenceUnits(input.text);
  const unitsByStem = new Map<string, EvidenceUnit[]>();
  for (const unit of units) {
    for (const s of unit.stems.keys()) {
      const list = unitsByStem.get(s);
      if (list) list.push(unit);
      else unitsByStem.set(s, [unit]);
    }
  }

  const controls: ControlResult[] = [];
  const gaps: MappingGap[] = [];
  for (const weighted of weightControls(input.framework.controls)) {
    const { result, covered } = assess(weighted, unitsByStem);
    controls.push(result);
    if (result.status !== 'covered') gaps.push(gapOf(weighted, result, covered));
  }

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

function assess(weighted: WeightedControl, unitsByStem: ReadonlyMap<string, EvidenceUnit[]>): { result: ControlResult; covered: Set<WeightedKeyword> } {
  const matches = new Map<EvidenceUnit, WeightedKeyword[]>();
  for (const keyword of weighted.keywords) {
    const [first, ...rest] = keyword.stems;
    for (const unit of unitsByStem.get(first ?? '') ?? []) {
      if (rest.length && !occursTogether(unit, keyword.stems)) continue;
      const list = matches.get(unit);
      if (list) list.push(keyword);
      else matches.set(unit, [keyword]);
    }
  }
  const minimum = QUALIFYING_SHARE * weighted.totalWeight;
  const evidence: ScoredUnit[] = [...matches.entries()]
    .filter(([, matched]) => matched.length > 1 || (matched[0]?.stems.length ?? 0) > 1)
    .map(([unit, matched]) => {
      const focus = matched.length > 1 ? 1 : SINGLE_MENTION_FACTOR;
      return { unit, matched, focus, strength: matched.reduce((s, k) => s + k.weight, 0) * focus };
    })
    .filter((scored) => scored.strength >= minimum * scored.focus)
    .sort((a, b) => b.strength - a.strength || a.unit.order - b.unit.order)
    .slice(0, MAX_EVIDENCE_PER_CONTROL)
    .sort((a, b) => a.unit.order - b.unit.order);
  const credit = new Map<WeightedKeyword, number>();
  for (const e of evidence) for (const k of e.matched) credit.set(k, Math.max(credit.get(k) ?? 0, k.weight * e.focus));
  const covered = new Set(credit.keys());
  const coveredWeight = [...credit.values()].reduce((s, w) => s + w, 0);
  const full = FULL_EVIDENCE_SHARE * weighted.totalWeight;
  const score = full > 0 ? Math.round(Math.min(1, coveredWeight / full) * 1000) / 1000 : 0;
  const status: ControlStatus = score >= COVERED_THRESHOLD ? 'covered' : score >= PARTIAL_THRESHOLD ? 'partial' : 'missing';
  const { id, title } = weighted.control;
  return {
    result: { id, title, status, score, evidence: evidence.map((e) => ({ quote: e.unit.text, location: { ...e.unit.location } })) },
    covered,
  };
}

/** Whether every stem of a multi-word keyword occurs within a window of (stems + PHRASE_SLACK) words. */
function occursTogether(unit: EvidenceUnit, stems: readonly string[]): boolean {
  const window = stems.length + PHRASE_SLACK;
  const starts = unit.stems.get(stems[0] ?? '') ?? [];
  return starts.some((start) =>
    stems.every((s) => (unit.stems.get(s) ?? []).some((position) => Math.abs(position - start) < window)),
  );
}

function gapOf(weighted: WeightedControl, result: ControlResult, covered: ReadonlySet<WeightedKeyword>): MappingGap {
  const { id, title, description } = weighted.control;
  const uncovered = weighted.keywords
    .filter((k) => !covered.has(k))
    .sort((a, b) => b.weight - a.weight)
    .slice(0, GAP_TERMS)
    .map((k) => k.keyword);
  const terms = uncovered.length ? uncovered : weighted.keywords.slice(0, GAP_TERMS).map((k) => k.keyword);
  const requirement = /[.!?]$/.test(description.trim()) ? description.trim() : `${description.trim()}.`;
  const status = result.status === 'partial' ? 'partial' : 'missing';
  const first = result.evidence[0]?.location;
  const where = first ? `${first.source ? `${first.source}, ` : ''}line ${first.line}` : '';
  return {
    controlId: id,
    title,
    status,
    missing: result.evidence.length
      ? `Evidence is too thin; nothing covers: ${terms.join(', ')}.`
      : `Nothing in the text addresses this control; no statement on: ${terms.join(', ')}.`,
    recommendation:
      status === 'partial'
        ? `Extend the statement at ${where} so it fully meets ${id} (${title}): ${requirement} Address ${quoteList(terms.slice(0, 3))} explicitly.`
        : `Add a policy statement or procedure that meets ${id} (${title}): ${requirement} Name ${quoteList(terms.slice(0, 3))} explicitly.`,
  };
}

function quoteList(terms: readonly string[]): string {
  const quoted = terms.map((t) => `"${t}"`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}
