/**
 * The verdict of a review run, decided once for every surface (CLI exit code and output, action
 * outputs, summaries and comments, n8n, MCP), with the figures it rests on:
 * - `passed` / `failed`: mapped now; failed below a threshold, on new gaps, or when a framework
 *   could not be judged;
 * - `refused`: over the cap or the balance, nothing spent;
 * - `unchanged`: a pull request changing no document in scope nor the gate: nothing mapped, the
 *   default branch's result (its coverage and gaps) stands;
 * - `skipped`: nothing evaluated (a dry run, no API key).
 */
import type { KeyMode } from '../api/schemas/common.js';
import type { PackSuggestion } from './budget.js';
import type { GateResult } from './gate.js';
import type { ReviewReport } from './reportDocument.js';
import type { ReviewResult } from './review.js';

type VerdictStatus = 'passed' | 'failed' | 'refused' | 'unchanged' | 'skipped';

interface FrameworkFigures {
  /** The framework's key (slug), as in report.json and gap keys. */
  key: string;
  name: string;
  /** As the service reported it, percent. */
  coverage: number;
  /** With waived controls counted as covered: what the threshold is checked against. */
  effectiveCoverage: number;
  threshold: number;
  /** Gaps not accepted by an active waiver. */
  gaps: number;
  /** Gaps accepted by an active waiver (not counted in `gaps`). */
  waivedGaps: number;
  /** Unwaived gaps absent from the baseline (0 without one). */
  newGaps: number;
  passed: boolean;
}

interface VerdictFigures {
  /** Where the coverage and gaps come from: mapped now, the default branch's report, or nowhere. */
  source: 'this run' | 'baseline' | 'none';
  frameworks: FrameworkFigures[];
  /** The lowest effective coverage; undefined with no framework. */
  coverage: number | undefined;
  gaps: number;
  waivedGaps: number;
  newGaps: number;
  mode: KeyMode | undefined;
  /** Live-price tokens the plan costs, and what was drawn. */
  plannedTokens: number;
  tokensSpent: number;
  maxTokens: number | undefined;
  balanceTokens: number | undefined;
  suggestedPack: PackSuggestion | undefined;
}

export interface Verdict {
  status: VerdictStatus;
  /** The gate's answer: true for passed; for unchanged the default branch's (true without its report); false otherwise. */
  passed: boolean;
  /** Why it is not passed (or why nothing was evaluated); empty when passed. */
  reasons: string[];
  figures: VerdictFigures;
  /** Frameworks that could not be judged. */
  errors: ReviewResult['frameworkErrors'];
}

function frameworkFigures(result: Pick<GateResult, 'framework' | 'coverage' | 'effectiveCoverage' | 'threshold' | 'gaps' | 'newGaps' | 'passed'>): FrameworkFigures {
  const waived = result.gaps.filter((gap) => gap.waived).length;
  return {
    key: result.framework.key,
    name: result.framework.name,
    coverage: result.coverage,
    effectiveCoverage: result.effectiveCoverage,
    threshold: result.threshold,
    gaps: result.gaps.length - waived,
    waivedGaps: waived,
    newGaps: result.newGaps.length,
    passed: result.passed,
  };
}

function totals(frameworks: readonly FrameworkFigures[]) {
  const lowest = frameworks.reduce<number | undefined>((low, entry) => (low === undefined || entry.effectiveCoverage < low ? entry.effectiveCoverage : low), undefined);
  const sum = (pick: (entry: FrameworkFigures) => number) => frameworks.reduce((total, entry) => total + pick(entry), 0);
  return { coverage: lowest, gaps: sum((entry) => entry.gaps), waivedGaps: sum((entry) => entry.waivedGaps), newGaps: sum((entry) => entry.newGaps) };
}

type VerdictSource = Pick<ReviewResult, 'status' | 'mode' | 'budget' | 'frameworks' | 'frameworkErrors' | 'tokensSpent'>;

/**
 * The one verdict. `baseline`: the default branch's report, whose figures an `unchanged` run
 * carries.
 */
export function decideVerdict(result: VerdictSource, context: { baseline?: ReviewReport | undefined } = {}): Verdict {
  const money = {
    mode: result.mode,
    plannedTokens: result.budget.plannedTokens,
    tokensSpent: result.tokensSpent,
    maxTokens: result.budget.maxTokens,
    balanceTokens: result.budget.balanceTokens,
    suggestedPack: result.budget.suggestedPack,
  };
  const mapped = result.frameworks.map(frameworkFigures);
  const figuresOf = (source: VerdictFigures['source'], frameworks: FrameworkFigures[]): VerdictFigures => ({ source, frameworks, ...totals(frameworks), ...money });
  const errors = result.frameworkErrors;

  switch (result.status) {
    case 'refused':
      return { status: 'refused', passed: false, reasons: [`refused before spending anything: ${result.budget.reasons.join('; ')}`], figures: figuresOf('none', []), errors };
    case 'dry-run': {
      const refusal = result.budget.allowed ? '' : `; a real run would be refused: ${result.budget.reasons.join('; ')}`;
      return { status: 'skipped', passed: false, reasons: [`dry run: planned and priced, nothing mapped${refusal}`], figures: figuresOf('none', []), errors };
    }
    case 'unchanged':
      return unchangedVerdict(context.baseline, money);
    case 'completed': {
      const gateReasons = result.frameworks.flatMap((entry) => entry.reasons.map((reason) => `${entry.framework.name}: ${reason}`));
      const errorReasons = errors.map((entry) => `${entry.framework}: could not be judged (${entry.message})`);
      const reasons = [...gateReasons, ...errorReasons];
      return { status: reasons.length === 0 ? 'passed' : 'failed', passed: reasons.length === 0, reasons, figures: figuresOf('this run', mapped), errors };
    }
  }
}

const NOTHING_SPENT = { mode: undefined, plannedTokens: 0, tokensSpent: 0, maxTokens: undefined, balanceTokens: undefined, suggestedPack: undefined };

/**
 * A pull request that changes no document in scope nor the gate: nothing mapped, the default
 * branch's result (`baseline`, its report) stands with its coverage and gaps.
 */
export function unchangedVerdict(baseline: ReviewReport | undefined, money: Omit<VerdictFigures, 'source' | 'frameworks' | 'coverage' | 'gaps' | 'waivedGaps' | 'newGaps'> = NOTHING_SPENT): Verdict {
  const frameworks = baseline ? baseline.frameworks.map(frameworkFigures) : [];
  const reasons = baseline ? [] : ['no document in scope nor the gate changed; nothing was mapped, so no figures are shown'];
  return { status: 'unchanged', passed: baseline ? baseline.passed : true, reasons, figures: { source: baseline ? 'baseline' : 'none', frameworks, ...totals(frameworks), ...money }, errors: [] };
}

/**
 * Nothing could be evaluated (a fork's pull request gets no API key): status skipped, never
 * passed, no figures, nothing spent. `reason` says why and what a maintainer must do.
 */
export function notEvaluatedVerdict(reason: string): Verdict {
  return { status: 'skipped', passed: false, reasons: [reason], figures: { source: 'none', frameworks: [], ...totals([]), ...NOTHING_SPENT }, errors: [] };
}

/** Whether the verdict fails a CI step: a failed gate (unless `failBelow` is false) and a refusal (unless `failOnRefusal` is false). */
export function verdictFailsStep(verdict: Verdict, options: { failBelow: boolean; failOnRefusal: boolean }): boolean {
  if (verdict.status === 'refused') return options.failOnRefusal;
  if (verdict.status !== 'failed') return false;
  // A framework that could not be judged is never a pass, whatever fail-below says.
  return verdict.errors.length > 0 || options.failBelow;
}
