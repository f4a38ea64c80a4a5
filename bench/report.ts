/** What every bench module reports into: named figures with units and optional targets, plus notes. */
export interface BenchReport {
  figure(name: string, value: number, unit: string, target?: string): void;
  note(line: string): void;
}

export interface Figure {
  module: string;
  name: string;
  value: number;
  unit: string;
  target?: string;
}

export type BenchModule = { bench(report: BenchReport): Promise<void> };

/** Collects figures per module and prints them as they come. */
export class Collector {
  readonly figures: Figure[] = [];
  readonly notes: string[] = [];

  forModule(module: string): BenchReport {
    return {
      figure: (name, value, unit, target) => {
        this.figures.push({ module, name, value, unit, ...(target !== undefined ? { target } : {}) });
        const shown = Number.isInteger(value) ? value.toLocaleString('en-US') : value.toLocaleString('en-US', { maximumFractionDigits: 2 });
        console.log(`  ${name.padEnd(48)} ${shown.padStart(12)} ${unit}${target ? `   (target ${target})` : ''}`);
      },
      note: (line) => {
        this.notes.push(`${module}: ${line}`);
        console.log(`  · ${line}`);
      },
    };
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
