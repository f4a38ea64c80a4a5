/**
 * What a change does to the evidence: quotes the default branch's report credited that the pull
 * request's files no longer contain (lost), and quotes the pull request's report credits that the
 * default branch's did not (gained). A lost quote is placed on the line where its text began (the
 * default branch's line, within the file as it is now): for a deletion or a rewrite that is where
 * the change is. Each says whether its control is now a gap or still evidenced elsewhere.
 */
import type { RepoFile } from './documents.js';
import { locateQuote } from './evidenceTrace.js';
import { normaliseRepoPath } from './glob.js';
import type { Evidence, GateResult } from './gate.js';
import type { ReviewReport } from './reportDocument.js';

interface EvidenceChange {
  framework: GateResult;
  controlId: string;
  title: string;
  evidence: Evidence;
}

export interface LostEvidence extends EvidenceChange {
  /** The control still has evidence in the pull request (from another quote or document). */
  stillEvidenced: boolean;
  /** The control is a gap now (missing, or partial where it was covered). */
  nowGap: boolean;
}

export interface EvidenceChanges {
  lost: LostEvidence[];
  gained: EvidenceChange[];
}

const fold = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Compares the default branch's report (with traced evidence) with the pull request's, over the PR's files. */
export function compareEvidence(baseline: Pick<ReviewReport, 'frameworks'>, current: Pick<ReviewReport, 'frameworks'>, files: readonly RepoFile[]): EvidenceChanges {
  const contentOf = new Map(files.map((file) => [normaliseRepoPath(file.path), file.content]));
  const lost: LostEvidence[] = [];
  const gained: EvidenceChange[] = [];
  for (const now of current.frameworks) {
    const before = baseline.frameworks.find((entry) => entry.framework.key === now.framework.key);
    if (!before) continue;
    const controlsNow = new Map(now.controls.map((control) => [control.id, control]));
    for (const control of before.controls) {
      const after = controlsNow.get(control.id);
      const nowGap = !after || after.status === 'missing' || (control.status === 'covered' && after.status === 'partial');
      const seen = new Set<string>();
      for (const quote of control.evidence) {
        if (!quote.file || quote.line === undefined) continue;
        const key = `${quote.file}\u0000${fold(quote.quote)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const content = contentOf.get(quote.file);
        if (content !== undefined && locateQuote(content, quote.quote)) continue;
        // The line where the text began, within the file as it is now: after a deletion the text
        // that followed moved up to it, after a rewrite the new text starts there. A deleted file
        // keeps the old lines.
        const lineCount = content === undefined ? Number.POSITIVE_INFINITY : Math.max(1, content.replace(/\n$/, '').split('\n').length);
        const line = Math.min(quote.line, lineCount);
        const endLine = content === undefined ? Math.max(quote.endLine ?? quote.line, line) : line;
        lost.push({
          framework: now,
          controlId: control.id,
          title: control.title,
          evidence: { ...quote, line, endLine },
          stillEvidenced: (after?.evidence.length ?? 0) > 0 && after?.status !== 'missing',
          nowGap,
        });
      }
    }
    const beforeControls = new Map(before.controls.map((control) => [control.id, new Set(control.evidence.map((quote) => fold(quote.quote)))]));
    for (const control of now.controls) {
      const known = beforeControls.get(control.id) ?? new Set<string>();
      const seen = new Set<string>();
      for (const quote of control.evidence) {
        const folded = fold(quote.quote);
        if (known.has(folded) || seen.has(folded)) continue;
        seen.add(folded);
        gained.push({ framework: now, controlId: control.id, title: control.title, evidence: quote });
      }
    }
  }
  return { lost, gained };
}

/** "C1 (now a gap), C2 (still evidenced)": one entry per control, for comments and summaries. */
export function lostControls(lost: readonly LostEvidence[]): string[] {
  const byControl = new Map<string, LostEvidence>();
  for (const entry of lost) byControl.set(`${entry.framework.framework.key}/${entry.controlId}`, entry);
  return [...byControl.values()].map((entry) => `${entry.controlId} (${entry.nowGap ? 'now a gap' : entry.stillEvidenced ? 'still evidenced elsewhere' : 'weaker'})`);
}

/** Message of a lost quote's annotation. */
export function lostEvidenceMessage(entry: LostEvidence): string {
  const state = entry.nowGap ? 'it is now a gap' : entry.stillEvidenced ? 'it is still evidenced elsewhere' : 'its evidence is weaker';
  return `This change removes evidence for ${entry.framework.framework.name} ${entry.controlId} ${entry.title}: ${state}. The default branch credited: "${entry.evidence.quote}"`;
}
