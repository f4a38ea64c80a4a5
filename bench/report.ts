/**
 * What every bench module reports into: named figures with units, optional targets and anchors,
 * plus notes. `figure(name, value, unit, target?)` is the signature every module uses; the optional
 * fifth argument names the anchor measured in the same run (another figure's name, or a figure of
 * its own), which bench/REPORT.md prints beside it.
 */
import { cpus, loadavg } from 'node:os';

export interface Anchor {
  /** Name of a figure of the same run, or a label for `value`. */
  name: string;
  value?: number;
  unit?: string;
}

export interface BenchReport {
  figure(name: string, value: number, unit: string, target?: string, anchor?: string | Anchor): void;
  note(line: string): void;
}

export interface Figure {
  module: string;
  name: string;
  value: number;
  unit: string;
  target?: string;
  anchor?: Anchor;
}

export type BenchModule = { bench(report: BenchReport): Promise<void> };

/**
 * The machine's 1-minute load average from now until the returned function is called, as text to
 * print beside figures taken on a shared machine ("load 2.1–3.4 on 2 cores").
 */
export function loadWatch(): () => string {
  const before = loadavg()[0]!;
  return () => `load ${before.toFixed(1)}–${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;
}

export function formatValue(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** Collects figures per module and prints them as they come. */
export class Collector {
  readonly figures: Figure[] = [];
  readonly notes: string[] = [];

  forModule(module: string): BenchReport {
    return {
      figure: (name, value, unit, target, anchor) => {
        const normalised = typeof anchor === 'string' ? { name: anchor } : anchor;
        this.figures.push({ module, name, value, unit, ...(target !== undefined ? { target } : {}), ...(normalised ? { anchor: normalised } : {}) });
        console.log(`  ${name.padEnd(48)} ${formatValue(value).padStart(12)} ${unit}${target ? `   (target ${target})` : ''}`);
      },
      note: (line) => {
        this.notes.push(`${module}: ${line}`);
        console.log(`  · ${line}`);
      },
    };
  }
}

/**
 * Whether a value meets a target written as "≤ 5000 ms", "< 10", "≥ 3", "0" or "2,000,000":
 * undefined when the target is not a comparison (a description).
 */
export function meetsTarget(value: number, target: string): boolean | undefined {
  const match = /^\s*(≤|<=|<|≥|>=|>|=)?\s*([\d,]+(?:\.\d+)?)\s*([a-zA-Z%/]*)\s*$/.exec(target);
  if (!match) return undefined;
  const bound = Number(match[2]!.replace(/,/g, ''));
  switch (match[1]) {
    case '<':
      return value < bound;
    case '≥':
    case '>=':
      return value >= bound;
    case '>':
      return value > bound;
    case '=':
    case undefined:
      return value === bound;
    default:
      return value <= bound;
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
