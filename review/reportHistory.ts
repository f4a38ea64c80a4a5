/** Earlier reviews as points of a coverage trend: when, at which commit, each framework's coverage. */
import type { ReviewReport } from './reportDocument.js';

export interface HistoryPoint {
  generatedAt: string;
  commit: string | undefined;
  /** Effective coverage (with waivers, what the gate checks) by framework key. */
  coverage: Record<string, number>;
  /** Framework names by key, for a legend that outlives a renamed framework. */
  names: Record<string, string>;
}

export function historyPoint(report: Pick<ReviewReport, 'generatedAt' | 'commit' | 'frameworks'>): HistoryPoint {
  const coverage: Record<string, number> = {};
  const names: Record<string, string> = {};
  for (const result of report.frameworks) {
    const value = typeof result.effectiveCoverage === 'number' ? result.effectiveCoverage : result.coverage;
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    coverage[result.framework.key] = value;
    names[result.framework.key] = result.framework.name;
  }
  return { generatedAt: report.generatedAt, commit: report.commit, coverage, names };
}

/** The history in time order, ending with `current`; an earlier report of the same time and commit counts once. */
export function trendPoints(history: readonly HistoryPoint[], current: HistoryPoint): HistoryPoint[] {
  const seen = new Map<string, HistoryPoint>();
  for (const point of [...history, current]) seen.set(`${point.generatedAt}\u0000${point.commit ?? ''}`, point);
  return [...seen.values()].sort((a, b) => a.generatedAt.localeCompare(b.generatedAt));
}
