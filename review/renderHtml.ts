/**
 * report.html: one self-contained page for the people who sign compliance off. No script, font,
 * image or style from elsewhere (it works offline, as a workflow artifact and as a Pages page).
 * Per framework: coverage against the threshold, a controls × documents matrix (symbol and word in
 * every cell, so it reads without colour), the gaps with what is missing, the waivers with their
 * expiry, declared-vs-evidenced, and a coverage trend over earlier reports as inline SVG with its
 * figures in a table beside it.
 */
import { escapeXml as escape } from '../api/xmlText.js';
import { blobBase, evidencePlace, evidenceUrl } from './evidenceLinks.js';
import type { Evidence, GateControl, GateGap, GateResult } from './gate.js';
import { modeNote, reportVerdict, type ReviewReport } from './reportDocument.js';
import { historyPoint, trendPoints, type HistoryPoint } from './reportHistory.js';

interface HtmlOptions {
  /** Earlier reports' points for the trend chart (oldest first or not: they are sorted). */
  history?: readonly HistoryPoint[];
}

const pct = (value: number) => `${Math.round(value * 10) / 10}%`;
const STATUS_TEXT = { covered: '✔ covered', partial: '◐ partial', missing: '✘ missing' } as const;

const STYLE = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4d5560; --line: #c9ced6; --ok: #dff3e4; --part: #fff1c7; --miss: #fbe0e0; --focus: #0b57d0; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 3rem; }
a { color: #0a4db3; }
a:focus-visible, [tabindex]:focus-visible, summary:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; z-index: 1; }
h1 { font-size: 1.6rem; margin-bottom: .25rem; } h2 { font-size: 1.3rem; margin-top: 2.5rem; border-bottom: 2px solid var(--line); padding-bottom: .25rem; }
h3 { font-size: 1.05rem; margin-top: 1.5rem; }
.meta { color: var(--muted); margin-top: 0; }
.verdict { font-weight: 700; padding: 0 .4rem; border-radius: 4px; }
.verdict.pass { background: var(--ok); } .verdict.fail { background: var(--miss); }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
thead th { background: #eef1f5; }
caption { text-align: left; color: var(--muted); padding-bottom: .25rem; }
.scroll { overflow-x: auto; max-width: 100%; }
.covered { background: var(--ok); } .partial { background: var(--part); } .missing { background: var(--miss); }
.none { color: var(--muted); }
.gap { border-left: 4px solid #b42318; padding: .25rem .75rem; margin: .75rem 0; }
.gap.waived { border-left-color: #7a5b00; }
.gap h4 { margin: .25rem 0; }
blockquote { margin: .25rem 0 .25rem 1rem; color: var(--muted); }
svg text { font: 12px system-ui, sans-serif; fill: var(--ink); }
`;

function anchorId(prefix: string, key: string): string {
  return `${prefix}-${key.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
}

function link(url: string | undefined, text: string): string {
  return url ? `<a href="${escape(url)}">${escape(text)}</a>` : escape(text);
}

/** The documents a framework's evidence cites, in first-seen order. */
function documentsOf(result: GateResult): string[] {
  const files = new Set<string>();
  for (const control of result.controls) for (const quote of control.evidence) if (quote.file) files.add(quote.file);
  return [...files];
}

function coverageBar(result: GateResult): string {
  const width = 400;
  const x = (value: number) => Math.round((Math.min(100, Math.max(0, value)) / 100) * width);
  const label = `Coverage ${pct(result.effectiveCoverage)}${result.effectiveCoverage !== result.coverage ? ` with waivers (${pct(result.coverage)} without)` : ''}, threshold ${pct(result.threshold)}`;
  return `<svg role="img" aria-label="${escape(label)}" width="${width + 2}" height="34" viewBox="-1 0 ${width + 2} 34">
<rect x="0" y="4" width="${width}" height="16" fill="#eef1f5" stroke="#8a929c"/>
<rect x="0" y="4" width="${x(result.effectiveCoverage)}" height="16" fill="${result.passed ? '#2e7d32' : '#b42318'}"/>
<line x1="${x(result.threshold)}" x2="${x(result.threshold)}" y1="0" y2="24" stroke="#1b1f24" stroke-width="2" stroke-dasharray="3 2"/>
<text x="${Math.min(width - 90, x(result.threshold) + 4)}" y="33">threshold ${escape(pct(result.threshold))}</text>
</svg>`;
}

function matrix(report: ReviewReport, result: GateResult): string {
  const documents = documentsOf(result);
  const head = documents.map((file) => `<th scope="col">${escape(file)}</th>`).join('');
  const cell = (control: GateControl, file: string): string => {
    const quotes = control.evidence.filter((quote) => quote.file === file);
    if (quotes.length === 0) return '<td class="none">— none</td>';
    const first = quotes[0] as Evidence;
    const text = `✔ ${quotes.length} quote${quotes.length === 1 ? '' : 's'}${first.line !== undefined ? `, line ${first.line}` : ''}`;
    return `<td class="${control.status}">${link(evidenceUrl(report, first), text)}</td>`;
  };
  const rows = result.controls.map((control) =>
    `<tr><th scope="row">${escape(control.id)} <span class="none">${escape(control.title)}</span></th><td class="${control.status}">${STATUS_TEXT[control.status]}</td>${documents.map((file) => cell(control, file)).join('')}</tr>`);
  return `<div class="scroll" role="region" tabindex="0" aria-labelledby="${anchorId('matrix', result.framework.key)}">
<table><caption id="${anchorId('matrix', result.framework.key)}">Controls of ${escape(result.framework.name)} by the documents that evidence them${documents.length === 0 ? ' (no document cited)' : ''}</caption>
<thead><tr><th scope="col">Control</th><th scope="col">Status</th>${head}</tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div>`;
}

function gapStatus(gap: GateGap): string {
  if (gap.waived && gap.waiver) return `waived until ${gap.waiver.expires}`;
  if (gap.waiver?.expired) return `waiver expired ${gap.waiver.expires}`;
  return gap.isNew ? `${gap.status}, new` : gap.status;
}

function gaps(report: ReviewReport, result: GateResult): string {
  if (result.gaps.length === 0) return '<p>None.</p>';
  return result.gaps
    .map((gap) => {
      const quotes = gap.evidence.map((quote) => `<blockquote>${escape(quote.quote)} (${link(evidenceUrl(report, quote), evidencePlace(quote) ?? 'no location')})</blockquote>`).join('');
      return `<div class="gap${gap.waived ? ' waived' : ''}"><h4>${escape(gap.controlId)} ${escape(gap.title)} (${escape(gapStatus(gap))})</h4>
<p><strong>Missing:</strong> ${escape(gap.missing)}</p><p><strong>Recommendation:</strong> ${escape(gap.recommendation)}</p>${quotes ? `<p><strong>Evidence so far:</strong></p>${quotes}` : ''}</div>`;
    })
    .join('\n');
}

function waivers(result: GateResult): string {
  const all = [...new Map([...result.gaps.flatMap((gap) => (gap.waiver ? [gap.waiver] : [])), ...result.unusedWaivers].map((waiver) => [waiver.control, waiver])).values()];
  if (all.length === 0) return '<p>None.</p>';
  const rows = all.map((waiver) => {
    const state = waiver.expired ? 'expired: the gap counts again' : result.unusedWaivers.includes(waiver) ? 'unused: no longer a gap' : `active, ${waiver.daysLeft} day${waiver.daysLeft === 1 ? '' : 's'} left`;
    return `<tr><th scope="row">${escape(waiver.control)}</th><td>${escape(waiver.owner)}</td><td>${escape(waiver.expires)}</td><td>${escape(state)}</td><td>${escape(waiver.reason)}</td></tr>`;
  });
  return `<table><thead><tr><th scope="col">Control</th><th scope="col">Owner</th><th scope="col">Expires</th><th scope="col">State</th><th scope="col">Reason</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function declared(result: GateResult): string {
  const check = result.declared;
  if (!check) return '';
  const notEvidenced = check.declaredWithoutEvidence.map((entry) => `<li>${escape(entry.controlId)}: declared in ${entry.files.map(escape).join(', ')}, not evidenced</li>`);
  const undeclared = check.evidencedUndeclared.map((id) => `<li>${escape(id)}</li>`);
  return `<h3>Declared vs evidenced</h3>
<p>${check.declared} control${check.declared === 1 ? '' : 's'} declared in front matter (<code>satisfies:</code>).</p>
<h4>Declared, not evidenced (${notEvidenced.length})</h4>${notEvidenced.length ? `<ul>${notEvidenced.join('')}</ul>` : '<p>None.</p>'}
<h4>Evidenced, declared nowhere (${undeclared.length})</h4>${undeclared.length ? `<ul>${undeclared.join('')}</ul>` : '<p>None.</p>'}`;
}

const SERIES_STYLES = [
  { colour: '#0a4db3', dash: '' },
  { colour: '#b42318', dash: '6 3' },
  { colour: '#2e7d32', dash: '2 3' },
  { colour: '#7a3db3', dash: '8 3 2 3' },
];

function trend(report: ReviewReport, history: readonly HistoryPoint[]): string {
  const points = trendPoints(history, historyPoint(report));
  const keys = report.frameworks.map((result) => result.framework.key);
  const width = 640;
  const height = 220;
  const left = 44;
  const bottom = 30;
  const x = (index: number) => left + (points.length === 1 ? (width - left) / 2 : (index / (points.length - 1)) * (width - left - 16));
  const y = (value: number) => Math.round((height - bottom) * (1 - value / 100)) + 8;
  const axis = [0, 50, 100].map((value) => `<line x1="${left}" x2="${width}" y1="${y(value)}" y2="${y(value)}" stroke="#c9ced6"/><text x="4" y="${y(value) + 4}">${value}%</text>`).join('');
  const series = keys.map((key, index) => {
    const style = SERIES_STYLES[index % SERIES_STYLES.length] as (typeof SERIES_STYLES)[number];
    const values = points.flatMap((point, at) => (point.coverage[key] === undefined ? [] : [{ at, value: point.coverage[key] as number, point }]));
    const line = values.map((entry) => `${x(entry.at).toFixed(1)},${y(entry.value)}`).join(' ');
    const dots = values.map((entry) => `<circle cx="${x(entry.at).toFixed(1)}" cy="${y(entry.value)}" r="3.5" fill="${style.colour}"><title>${escape(`${report.frameworks[index]?.framework.name ?? key}: ${pct(entry.value)} on ${entry.point.generatedAt.slice(0, 10)}`)}</title></circle>`).join('');
    return `<polyline points="${line}" fill="none" stroke="${style.colour}" stroke-width="2" ${style.dash ? `stroke-dasharray="${style.dash}"` : ''}/>${dots}`;
  });
  const legend = keys.map((key, index) => {
    const style = SERIES_STYLES[index % SERIES_STYLES.length] as (typeof SERIES_STYLES)[number];
    return `<line x1="${left + index * 150}" x2="${left + index * 150 + 24}" y1="${height + 4}" y2="${height + 4}" stroke="${style.colour}" stroke-width="2" ${style.dash ? `stroke-dasharray="${style.dash}"` : ''}/><text x="${left + index * 150 + 28}" y="${height + 8}">${escape(report.frameworks[index]?.framework.name ?? key)}</text>`;
  });
  const description = `Coverage of ${keys.length} framework${keys.length === 1 ? '' : 's'} over ${points.length} review${points.length === 1 ? '' : 's'}, from ${points[0]?.generatedAt.slice(0, 10) ?? ''} to ${points.at(-1)?.generatedAt.slice(0, 10) ?? ''}; the table below lists the figures.`;
  const header = `<tr><th scope="col">Review</th><th scope="col">Commit</th>${keys.map((key, index) => `<th scope="col">${escape(report.frameworks[index]?.framework.name ?? key)}</th>`).join('')}</tr>`;
  const rows = points.map((point) => `<tr><th scope="row">${escape(point.generatedAt.slice(0, 16).replace('T', ' '))}</th><td>${escape(point.commit?.slice(0, 12) ?? '—')}</td>${keys.map((key) => `<td>${point.coverage[key] === undefined ? '—' : pct(point.coverage[key] as number)}</td>`).join('')}</tr>`);
  return `<section aria-labelledby="trend"><h2 id="trend">Coverage trend</h2>
<svg role="img" aria-label="${escape(description)}" width="${width}" height="${height + 16}" viewBox="0 0 ${width} ${height + 16}">${axis}${series.join('')}${legend.join('')}</svg>
<div class="scroll" role="region" tabindex="0" aria-labelledby="trend-table"><table><caption id="trend-table">Coverage (with waivers) at each review</caption><thead>${header}</thead><tbody>${rows.join('')}</tbody></table></div></section>`;
}

export function renderReportHtml(report: ReviewReport, options: HtmlOptions = {}): string {
  const verdict = reportVerdict(report);
  const base = blobBase(report);
  const where = [
    report.repository ? `Repository ${escape(report.repository)}` : undefined,
    report.commit ? `at commit ${link(base, report.commit.slice(0, 12))}` : undefined,
    `reviewed ${escape(report.generatedAt.slice(0, 16).replace('T', ' '))} UTC`,
  ].filter(Boolean);
  const summaryRows = report.frameworks.map((result) =>
    `<tr><th scope="row"><a href="#${anchorId('fw', result.framework.key)}">${escape(result.framework.name)}</a></th><td>${pct(result.coverage)}</td><td>${pct(result.effectiveCoverage)}</td><td>${pct(result.threshold)}</td><td>${result.gaps.filter((gap) => !gap.waived).length}</td><td class="${result.passed ? 'covered' : 'missing'}">${result.passed ? '✔ passed' : '✘ failed'}</td></tr>`);
  const notEvaluated = (report.notEvaluated ?? []).map((entry) => `<tr><th scope="row">${escape(entry.framework)}</th><td colspan="4">${escape(`${entry.code}: ${entry.message}`)}</td><td class="missing">✘ not evaluated</td></tr>`);
  const frameworks = report.frameworks.map((result) => {
    const id = anchorId('fw', result.framework.key);
    const reasons = [...result.reasons.map((reason) => `<li>✘ ${escape(reason)}</li>`), ...result.warnings.map((warning) => `<li>⚠ ${escape(warning)}</li>`)];
    return `<section aria-labelledby="${id}"><h2 id="${id}">${escape(result.framework.name)}${result.framework.version ? ` (${escape(result.framework.version)})` : ''}: <span class="verdict ${result.passed ? 'pass' : 'fail'}">${result.passed ? 'passed' : 'failed'}</span></h2>
<p>Coverage <strong>${pct(result.coverage)}</strong>${result.effectiveCoverage !== result.coverage ? `, ${pct(result.effectiveCoverage)} with waivers` : ''}; threshold ${pct(result.threshold)}; ${result.summary.covered} covered, ${result.summary.partial} partial, ${result.summary.missing} missing of ${result.summary.controls} controls.</p>
${coverageBar(result)}
${reasons.length ? `<ul>${reasons.join('')}</ul>` : ''}
<h3>Controls × documents</h3>
${matrix(report, result)}
<h3>Gaps (${result.gaps.length})</h3>
${gaps(report, result)}
<h3>Waivers</h3>
${waivers(result)}
${declared(result)}
</section>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>Compliance review: ${verdict}${escape(modeNote(report.mode))}</title><style>${STYLE}</style></head>
<body><a class="skip" href="#main">Skip to the report</a>
<header><h1>Compliance review: <span class="verdict ${report.passed ? 'pass' : 'fail'}">${verdict}</span>${escape(modeNote(report.mode))}</h1><p class="meta">${where.join(', ')}.</p></header>
<main id="main">
<table><caption>Frameworks</caption><thead><tr><th scope="col">Framework</th><th scope="col">Coverage</th><th scope="col">With waivers</th><th scope="col">Threshold</th><th scope="col">Gaps</th><th scope="col">Result</th></tr></thead><tbody>${[...summaryRows, ...notEvaluated].join('')}</tbody></table>
${report.frameworks.length > 0 ? trend(report, options.history ?? []) : ''}
${frameworks.join('\n')}
</main></body></html>
`;
}
