/**
 * The verdict of a review run, decided once for every surface (CLI exit code and output, action
 * outputs, summaries and comments, n8n, MCP), with the figures it rests on:
 * - `passed` / `failed`: mapped now; failed below a threshold or on new gaps;
 * - `not-evaluated`: a framework could not be evaluated (not in the catalogue, a failed mapping) or
 *   the run could not evaluate the change at all (no base commit): never passed;
 * - `refused`: over the cap or the balance, nothing spent;
 * - `unchanged`: a pull request changing no document in scope nor the gate: nothing mapped, the
 *   default branch's result (its coverage and gaps) stands;
 * - `skipped`: nothing was attempted (a dry run, no API key on a fork's pull request).
 */
import type { KeyMode } from '../api/schemas/common.js';
import type { PackSuggestion } from './budget.js';
import type { GateResult } from './gate.js';
import type { ReviewReport } from './reportDocument.js';
import type { ReviewResult } from './review.js';
import type { EventPolicy } from './events.js';

type VerdictStatus = 'passed' | 'failed' | 'not-evaluated' | 'refused' | 'unchanged' | 'skipped';

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
      const errorReasons = errors.map((entry) => `${entry.framework}: not evaluated (${entry.message})`);
      // A framework that could not be evaluated leaves the verdict not evaluated, whatever the others say.
      const reasons = [...errorReasons, ...gateReasons];
      const status = errors.length > 0 ? 'not-evaluated' : reasons.length === 0 ? 'passed' : 'failed';
      return { status, passed: reasons.length === 0, reasons, figures: figuresOf('this run', mapped), errors };
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
 * Nothing was evaluated, never passed, no figures, nothing spent: `skipped` when nothing was
 * attempted (a fork's pull request gets no API key), `not-evaluated` when the run stopped before it
 * could evaluate (no base commit, an invalid configuration), `refused` when the event or the cap
 * forbade what was asked. `reason` says why and what to do.
 */
export function notEvaluatedVerdict(reason: string, status: 'skipped' | 'not-evaluated' | 'refused' = 'skipped'): Verdict {
  return { status, passed: false, reasons: [reason], figures: { source: 'none', frameworks: [], ...totals([]), ...NOTHING_SPENT }, errors: [] };
}

/** The service's answer to a framework it does not know (`framework_not_found`): a usage mistake, not a fault. */
export function isUnknownFramework(code: string): boolean {
  return code === 'framework_not_found' || code === 'unknown_framework';
}

/** What ends a CI step besides the verdict: the inputs `fail-below` and `fail-on-refusal`, and whether the run gates a change. */
export interface StepOptions {
  failBelow: boolean;
  failOnRefusal: boolean;
  /** A gated run (events.ts: gateFromBaseBranch): nothing that did not evaluate the change reports success. */
  gated?: boolean;
}

/**
 * The step options as far as the event allows. On a gated run the workflow file is the change's
 * own text, so inputs that would turn a failed, refused or unevaluated check green
 * (`fail-below: false`, `fail-on-refusal: false`) are not applied, like a lower `threshold`; a dry
 * run evaluates nothing, so its step fails there. `ignored` says so, one line each, in the labels
 * the user wrote.
 */
export function stepOptions(policy: Pick<EventPolicy, 'gateFromBaseBranch' | 'changeRequest'>, requested: { failBelow: boolean; failOnRefusal: boolean; dryRun: boolean }): StepOptions & { ignored: string[] } {
  const gated = policy.gateFromBaseBranch;
  const ignored: string[] = [];
  if (gated && !requested.failBelow) ignored.push(`fail-below: false not applied: on a ${policy.changeRequest} a failed gate fails the step`);
  if (gated && !requested.failOnRefusal) ignored.push(`fail-on-refusal: false not applied: on a ${policy.changeRequest} a refused check evaluated nothing, so the step fails`);
  if (gated && requested.dryRun) ignored.push(`dry-run: true evaluates nothing: on a ${policy.changeRequest} its step fails, not evaluated`);
  return { failBelow: gated || requested.failBelow, failOnRefusal: gated || requested.failOnRefusal, gated, ignored };
}

/** Whether the verdict fails a CI step: a failed gate (unless `failBelow` is false), a refusal (unless `failOnRefusal` is false), anything not evaluated; on a gated run also a skip. */
export function verdictFailsStep(verdict: Verdict, options: StepOptions): boolean {
  if (verdict.status === 'refused') return options.failOnRefusal;
  // What could not be evaluated is never a pass, whatever fail-below says.
  if (verdict.status === 'not-evaluated') return true;
  if (verdict.status === 'skipped') return options.gated === true;
  return verdict.status === 'failed' && options.failBelow;
}
