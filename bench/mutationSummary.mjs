#!/usr/bin/env node
// The mutation score of api/ and review/, accumulated one run at a time: a full run takes hours on our
// machine, so `npm run test:mutation -- --mutate <files>` runs a few files and scripts/mutation/run.mjs
// merges what it measured into bench/mutation/summary.json (committed), file by file, each with when and
// at which commit it was measured; a file run again replaces its earlier result. The score is Stryker's:
// killed and timed out over those plus survived and uncovered (ignored, i.e. static, mutants and compile
// errors count in neither). Surviving mutants a reader judged equivalent are listed with the reason in
// bench/mutation/equivalent.json, keyed `file:line:column mutator replacement`, and shown beside them.
//
//   node bench/mutationSummary.mjs                     prints the scores per folder and file, the undetected
//                                                      mutants and the files not run, as bench/MUTATION.md shows them
//   node bench/mutationSummary.mjs merge REPORT RUN    merges a Stryker JSON report (RUN: {commit, dirty, finishedAt, mutate})
//                                                      and rewrites bench/MUTATION.md's summary block with the result
//   node bench/mutationSummary.mjs page                rewrites that block from summary.json as it is (after a git merge of two
//                                                      branches' summaries)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, matchesGlob } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(import.meta.dirname, '..');
export const SUMMARY = join(ROOT, 'bench', 'mutation', 'summary.json');
const EQUIVALENT = join(ROOT, 'bench', 'mutation', 'equivalent.json');
const REPORT_PAGE = join(ROOT, 'bench', 'MUTATION.md');
const MARKERS = ['<!-- mutation-summary -->', '<!-- /mutation-summary -->'];
const COUNTED = { Killed: 'killed', Timeout: 'timeout', Survived: 'survived', NoCoverage: 'noCoverage', Ignored: 'ignored' };

/** The key a mutant is listed under: stable across runs as long as the file does not change above it. */
const mutantKey = (file, mutant) =>
  `${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} ${JSON.stringify(mutant.replacement ?? '')}`;

/** Stryker's score of a set of counts, or null when nothing was scored. */
export function score({ killed, timeout, survived, noCoverage }) {
  const scored = killed + timeout + survived + noCoverage;
  return scored === 0 ? null : Math.round((10_000 * (killed + timeout)) / scored) / 100;
}

/** One file's entry: its counts, score, when and where measured, and every undetected mutant. */
export function fileResult(file, mutants, run) {
  const counts = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, other: 0 };
  const undetected = [];
  for (const mutant of mutants) {
    counts[COUNTED[mutant.status] ?? 'other'] += 1;
    if (mutant.status === 'Survived' || mutant.status === 'NoCoverage') undetected.push(`${mutant.status} ${mutantKey(file, mutant)}`);
  }
  return { ...counts, score: score(counts), measuredAt: run.finishedAt, commit: run.commit, dirty: run.dirty, undetected: undetected.sort(byLine) };
}

const lineOf = (entry) => Number(entry.split(':')[1]);
const byLine = (a, b) => lineOf(a) - lineOf(b) || a.localeCompare(b);

/**
 * The summary with the files this run mutated (`run.mutate`, globs; every file without it) put in place
 * of their earlier results. The report's other files are carried from Stryker's incremental file, not measured.
 */
export function merge(summary, report, run) {
  const files = { ...summary.files };
  const measured = (file) => !run.mutate || run.mutate.some((pattern) => file === pattern || matchesGlob(file, pattern));
  for (const [file, { mutants }] of Object.entries(report.files)) {
    if (measured(file)) files[file] = fileResult(file, mutants, run);
  }
  return { files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) };
}

/** The files mutation testing covers (stryker.config.mjs's `mutate`), as git lists them. */
function mutatedFiles() {
  return execFileSync('git', ['ls-files', 'api/*.ts', 'review/*.ts'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file && !file.endsWith('.d.ts') && !file.startsWith('api/generated/'));
}

/** Per folder: the counts and score over the files measured, and the files never measured. */
export function folderTotals(summary, files) {
  return ['api', 'review'].map((folder) => {
    const inFolder = files.filter((file) => file.startsWith(`${folder}/`));
    const measured = inFolder.filter((file) => summary.files[file]);
    const counts = { killed: 0, timeout: 0, survived: 0, noCoverage: 0 };
    for (const file of measured) for (const key of Object.keys(counts)) counts[key] += summary.files[file][key];
    return { folder, ...counts, score: score(counts), measured: measured.length, files: inFolder.length, notRun: inFolder.filter((file) => !summary.files[file]) };
  });
}

const readJson = (path, fallback) => {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return fallback;
    throw error;
  }
};

/** The summary as bench/MUTATION.md shows it: folders, files, then every undetected mutant with its reason if equivalent. */
export function markdown(summary, equivalent, files) {
  const lines = ['| folder | files measured | killed | timeout | survived | no coverage | score over the files measured |', '|---|---|---|---|---|---|---|'];
  const totals = folderTotals(summary, files);
  for (const total of totals) {
    lines.push(`| \`${total.folder}/\` | ${total.measured} of ${total.files} | ${total.killed} | ${total.timeout} | ${total.survived} | ${total.noCoverage} | ${total.score ?? '-'}% |`);
  }
  lines.push('', '| file | killed | timeout | survived | no coverage | ignored (static) | score | measured | commit |', '|---|---|---|---|---|---|---|---|---|');
  for (const [file, entry] of Object.entries(summary.files)) {
    const commit = `${entry.commit.slice(0, 7)}${entry.dirty ? ' (uncommitted changes)' : ''}`;
    lines.push(`| \`${file}\` | ${entry.killed} | ${entry.timeout} | ${entry.survived} | ${entry.noCoverage} | ${entry.ignored} | ${entry.score ?? '-'}% | ${entry.measuredAt.slice(0, 16).replace('T', ' ')} UTC | ${commit} |`);
  }
  lines.push('', 'Undetected mutants (`status file:line:column mutator replacement`):', '');
  for (const entry of Object.values(summary.files)) {
    for (const line of entry.undetected) {
      const reason = equivalent[line.slice(line.indexOf(' ') + 1)];
      lines.push(`- \`${line}\`${reason ? `: equivalent, ${reason}` : ': not yet killed'}`);
    }
  }
  lines.push('', `Not run yet: ${totals.flatMap((total) => total.notRun).map((file) => `\`${file}\``).join(', ') || 'none'}.`);
  return lines.join('\n');
}

/** Rewrites bench/MUTATION.md's summary block (between its markers, never edited by hand) from the summary. */
function writePage(summary) {
  const page = readFileSync(REPORT_PAGE, 'utf8');
  const [before, rest] = page.split(MARKERS[0]);
  const after = rest?.split(MARKERS[1])[1];
  if (after === undefined) throw new Error(`${REPORT_PAGE} has lost its markers ${MARKERS.join(' and ')}`);
  writeFileSync(REPORT_PAGE, `${before}${MARKERS[0]}\n\n${markdown(summary, readJson(EQUIVALENT, {}), mutatedFiles())}\n\n${MARKERS[1]}${after}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, reportPath, runPath] = process.argv.slice(2);
  const summary = readJson(SUMMARY, { files: {} });
  if (command === 'merge') {
    const merged = merge(summary, readJson(reportPath, undefined), readJson(runPath, undefined));
    writeFileSync(SUMMARY, `${JSON.stringify(merged, null, 2)}\n`);
    writePage(merged);
  } else if (command === 'page') {
    writePage(summary);
  } else {
    console.log(markdown(summary, readJson(EQUIVALENT, {}), mutatedFiles()));
  }
}
