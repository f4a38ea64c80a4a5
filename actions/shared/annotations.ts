/** The map and review actions' annotations: the top gaps, evidence a pull request removed, expired waivers. */
import { configLine, lostEvidenceMessage, neutralise, truncate, type GateGap, type GateResult, type LostEvidence, type ReviewReport } from '../../review/index.js';
import { log } from './runtime/log.js';

/** GitHub shows at most 10 annotations of each kind per step; the full list is in the summary. */
export const MAX_ANNOTATIONS = 10;

function severity(gap: GateGap): number {
  return (gap.waived ? 4 : 0) + (gap.isNew === false ? 2 : 0) + (gap.status === 'missing' ? 0 : 1);
}

/** Warning annotations for the top gaps (new and missing first), on the evidence's file and line when known. */
export function annotateGaps(report: ReviewReport, limit: number = MAX_ANNOTATIONS): number {
  const ranked = report.frameworks
    .flatMap((result) => result.gaps.filter((gap) => !gap.waived).map((gap) => ({ result, gap })))
    .sort((a, b) => severity(a.gap) - severity(b.gap) || a.gap.controlId.localeCompare(b.gap.controlId));
  for (const { result, gap } of ranked.slice(0, limit)) {
    const evidence = gap.evidence.find((quote) => quote.file);
    log.warning(`${gap.controlId} ${gap.title} (${gap.status}${gap.isNew ? ', new' : ''}): ${truncate(neutralise(gap.missing), 500)}`, {
      title: `Compliance gap in ${result.framework.name}`,
      ...(evidence?.file ? { file: evidence.file } : {}),
      ...(evidence?.file && evidence.line !== undefined ? { startLine: evidence.line, endLine: evidence.endLine ?? evidence.line } : {}),
    });
  }
  const hidden = ranked.length - Math.min(ranked.length, limit);
  if (hidden > 0) log.info(`${hidden} more gap${hidden === 1 ? '' : 's'} listed in the job summary and report.md (GitHub shows at most ${limit} annotations per step).`);
  return Math.min(ranked.length, limit);
}

/**
 * A warning on the lines of each quote the pull request removed that the default branch credited,
 * naming the control and whether it is now a gap; capped, the rest counted in the log (the comment
 * and the summary list every control).
 */
export function annotateLostEvidence(lost: readonly LostEvidence[], limit: number = MAX_ANNOTATIONS): number {
  // A control that becomes a gap first.
  const ranked = [...lost].sort((a, b) => Number(b.nowGap) - Number(a.nowGap) || a.controlId.localeCompare(b.controlId));
  for (const entry of ranked.slice(0, limit)) {
    log.warning(truncate(neutralise(lostEvidenceMessage(entry)), 900), {
      title: `Compliance evidence removed: ${entry.controlId}`,
      file: entry.evidence.file as string,
      startLine: entry.evidence.line as number,
      endLine: entry.evidence.endLine ?? (entry.evidence.line as number),
    });
  }
  const hidden = ranked.length - Math.min(ranked.length, limit);
  if (hidden > 0) log.info(`${hidden} more removed evidence quote${hidden === 1 ? '' : 's'} listed in the pull request comment and the job summary (GitHub shows at most ${limit} annotations per step).`);
  return Math.min(ranked.length, limit);
}

/** An error annotation per expired waiver whose gap is back, pointing at compliance.yml. */
export function annotateExpiredWaivers(frameworks: readonly GateResult[], configPath: string, configText: string | undefined): number {
  let count = 0;
  for (const result of frameworks) {
    for (const waiver of result.expiredWaivers) {
      if (count >= MAX_ANNOTATIONS) return count;
      const line = configLine(configText, 'control', waiver.control);
      log.error(`The waiver for ${waiver.control} (${result.framework.name}, owner ${waiver.owner}) expired on ${waiver.expires}: the gap counts again. Renew it with a new expiry or close the gap.`, {
        title: 'Expired compliance waiver',
        file: configPath,
        ...(line !== undefined ? { startLine: line } : {}),
      });
      count++;
    }
  }
  return count;
}
