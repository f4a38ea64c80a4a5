/**
 * Benchmark of the sandbox library: ingest and index 500 documents of ~20,000 characters (time until
 * all are searchable), search latency over 100 queries on that library, the same on 50 documents of
 * ~300,000 characters, and peak memory. Documents come from a seeded generator: same run, same text.
 */
import { DatabaseSync } from 'node:sqlite';
import { Library } from '../sandbox/library/index.js';

/** The runner's report (bench/report.ts); a local copy so this file stands alone. */
export interface BenchReport {
  figure(name: string, value: number, unit: string, target?: string): void;
  note(line: string): void;
}

const VOCABULARY = (
  'access control account review quarterly privileged administrator authentication password multi-factor token ' +
  'incident response escalation severity triage containment eradication recovery forensic evidence breach notification ' +
  'data retention period disposal encryption key rotation classification confidential restricted personal record ' +
  'vendor supplier contract due diligence assessment risk register likelihood impact treatment owner appetite ' +
  'backup restore continuity disaster failover objective exercise tabletop outage resilience capacity monitoring ' +
  'logging alert audit trail integrity change approval deployment release configuration baseline patch vulnerability ' +
  'training awareness phishing onboarding termination screening sanction workstation device media facility visitor'
).split(' ');
const FILLER = 'the a of to and is are must be by for with within each every all on in at'.split(' ');

/** Mulberry32: a small, fast, seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generateDocument(seed: number, chars: number): { title: string; content: string } {
  const random = prng(seed);
  const pick = (words: readonly string[]): string => words[Math.floor(random() * words.length)]!;
  const parts: string[] = [];
  let length = 0;
  let section = 0;
  while (length < chars) {
    if (section % 4 === 0) parts.push(`## ${pick(VOCABULARY)} ${pick(VOCABULARY)} ${section}`);
    const sentences: string[] = [];
    for (let s = 0; s < 5; s++) {
      const words: string[] = [];
      for (let w = 0; w < 14; w++) words.push(random() < 0.45 ? pick(FILLER) : pick(VOCABULARY));
      sentences.push(`${words.join(' ')} ${seed}x${section}.`);
    }
    const paragraph = sentences.map((s) => s[0]!.toUpperCase() + s.slice(1)).join(' ');
    parts.push(paragraph);
    length += paragraph.length + 2;
    section++;
  }
  return { title: `${pick(VOCABULARY)} ${pick(VOCABULARY)} policy ${seed}`, content: `# Policy ${seed}\n\n${parts.join('\n\n')}`.slice(0, chars) };
}

function queries(count: number, seed: number): string[] {
  const random = prng(seed);
  const pick = (): string => VOCABULARY[Math.floor(random() * VOCABULARY.length)]!;
  return Array.from({ length: count }, (_, i) => (i % 5 === 0 ? `"${pick()} ${pick()}"` : i % 2 ? `${pick()} ${pick()}` : `${pick()} ${pick()} ${pick()}`));
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

function run(report: BenchReport, label: string, documents: number, chars: number, target: { load: number | undefined; p95: number }, peak: () => void): void {
  const library = new Library(new DatabaseSync(':memory:'));
  const now = '2025-01-01T00:00:00.000Z';
  const corpus = Array.from({ length: documents }, (_, i) => generateDocument(i + 1, chars));
  const started = performance.now();
  for (const doc of corpus) {
    const work = library.beginIngest('bench', doc, { capacity: documents, now });
    library.completeWork('bench', work.documentId, { mode: 'live', now });
    peak();
  }
  const loadMs = performance.now() - started;
  report.figure(`library ${label}: ingest until searchable`, Math.round(loadMs), 'ms', target.load ? `≤ ${target.load} ms` : undefined);

  const latencies: number[] = [];
  let hits = 0;
  for (const query of queries(100, documents)) {
    const t = performance.now();
    hits += library.search('bench', { query }).results.length;
    latencies.push(performance.now() - t);
    peak();
  }
  report.figure(`library ${label}: search p50`, round(percentile(latencies, 50)), 'ms');
  report.figure(`library ${label}: search p95`, round(percentile(latencies, 95)), 'ms', `≤ ${target.p95} ms`);
  report.note(`library ${label}: ${hits} results over 100 queries`);
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

export async function bench(report: BenchReport): Promise<void> {
  let rss = process.memoryUsage().rss;
  const peak = (): void => {
    rss = Math.max(rss, process.memoryUsage().rss);
  };
  run(report, '500 × 20k chars', 500, 20_000, { load: 5000, p95: 10 }, peak);
  run(report, '50 × 300k chars', 50, 300_000, { load: undefined, p95: 50 }, peak);
  report.figure('library: peak memory (rss)', Math.round(rss / 1024 / 1024), 'MiB');
}
