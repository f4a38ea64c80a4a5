/**
 * The map action's pull request part of its comment and summary: the verdict, what the change does
 * against the default branch's report (gaps introduced and resolved, evidence lost and gained),
 * what merging will cost, reuse and spend. Rendering only: review/ decides each figure.
 */
import { controlOfGapKey, formatTokens, lostControls, resolvedGapKeys, tableCell, type EvidenceChanges, type MergePrice, type ReviewResult, type Verdict } from '../../review/index.js';
import type { Baseline } from './reportInputs.js';
import { verdictLine } from './verdict.js';

function mergePriceLine(price: MergePrice | undefined): string {
  if (!price) return '';
  const { counts } = price;
  const changed = counts.new + counts.changed;
  const tokens = price.tokens === undefined ? 'a price the service does not list' : formatTokens(price.tokens);
  const each = price.lines.filter((line) => line.count > 0).map((line) => `${line.count} × ${line.tokensEach === undefined ? 'unlisted' : formatTokens(line.tokensEach)} (${line.operationId})`);
  const parts = [`**Merging costs the library sync ${tokens}**`];
  parts.push(changed === 0 ? ': no document to ingest or refresh' : `: ${changed} changed document${changed === 1 ? '' : 's'}, ${each.join(' + ')}`);
  if (counts.removed > 0) parts.push(`; ${counts.removed} document${counts.removed === 1 ? '' : 's'} leave${counts.removed === 1 ? 's' : ''} the library's scope (free)`);
  return `${parts.join('')}. Prices from GET /billing; the sync runs on the default branch after the merge.`;
}

/** The part of the pull request comment that only a pull request run has: baseline, gap changes, prices. */
export function pullRequestNotes(result: ReviewResult, context: { verdict: Verdict; baseline: Baseline | undefined; baselineMissing: string | undefined; baselineRejected: string | undefined; tokensSpent: number; evidence: EvidenceChanges | undefined }): string {
  const lines: string[] = [verdictLine(context.verdict)];
  if (context.baselineMissing) lines.push(`No report of the default branch yet (${tableCell(context.baselineMissing)}): no comparison this time. The default branch's next run saves one.`);
  if (context.baselineRejected) lines.push(tableCell(context.baselineRejected));
  if (context.baseline && result.status === 'completed') {
    const introduced = result.frameworks.flatMap((framework) => framework.newGaps.map((gap) => `${gap.controlId}`));
    const resolved = resolvedGapKeys(result.frameworks, context.baseline.gapKeys).map(controlOfGapKey);
    lines.push(`Against the default branch: ${introduced.length} gap${introduced.length === 1 ? '' : 's'} introduced${introduced.length ? ` (${introduced.map(tableCell).join(', ')})` : ''}, ${resolved.length} resolved${resolved.length ? ` (${resolved.map(tableCell).join(', ')})` : ''}.`);
  }
  if (context.evidence) {
    const lost = lostControls(context.evidence.lost);
    const gained = [...new Set(context.evidence.gained.map((entry) => entry.controlId))];
    lines.push(`Evidence lost: ${lost.length === 0 ? 'none' : lost.map(tableCell).join(', ')}. Evidence gained: ${gained.length === 0 ? 'none' : gained.map(tableCell).join(', ')}.`);
  }
  const merge = mergePriceLine(result.mergePrice);
  if (merge) lines.push(merge);
  if (result.reused.length > 0) lines.push(`Mapping of ${result.reused.map(tableCell).join(', ')} reused, 0 tokens: the same framework and documents (by content hash) as an earlier run of this pull request.`);
  lines.push(`This check spent ${formatTokens(context.tokensSpent)}${result.mode === 'sandbox' ? ' (sandbox key: nothing is charged)' : ''}.`);
  return lines.map((line) => `- ${line}`).join('\n');
}
