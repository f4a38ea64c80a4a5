/**
 * What each control looks for, weighted by the control set alone: a keyword's weight is its
 * inverse control frequency, ln(1 + N / df), where N is the number of controls and df how many of
 * them list the same keyword (compared by stems). A keyword specific to one control ("sanction
 * policy") weighs more than one many controls share ("ePHI"). Nothing depends on the document, so a
 * control's score depends only on the sentences that evidence it.
 */
import { contentStems } from '../library/text.js';
import type { MappingControl } from './types.js';

export interface WeightedKeyword {
  /** As the control set spells it (shown in gaps). */
  keyword: string;
  stems: string[];
  weight: number;
}

export interface WeightedControl {
  control: MappingControl;
  keywords: WeightedKeyword[];
  /** Sum of keyword weights. */
  totalWeight: number;
}

export function weightControls(controls: readonly MappingControl[]): WeightedControl[] {
  const compiled = controls.map((control) => {
    const seen = new Set<string>();
    const keywords: Array<{ keyword: string; stems: string[]; key: string }> = [];
    for (const keyword of control.keywords) {
      const stems = contentStems(keyword);
      const key = [...new Set(stems)].sort().join(' ');
      if (!stems.length || seen.has(key)) continue;
      seen.add(key);
      keywords.push({ keyword, stems: [...new Set(stems)], key });
    }
    return { control, keywords };
  });
  const controlFrequency = new Map<string, number>();
  for (const c of compiled) for (const k of c.keywords) controlFrequency.set(k.key, (controlFrequency.get(k.key) ?? 0) + 1);
  const n = Math.max(controls.length, 1);
  return compiled.map(({ control, keywords }) => {
    const weighted = keywords.map((k) => ({ keyword: k.keyword, stems: k.stems, weight: Math.log(1 + n / (controlFrequency.get(k.key) ?? 1)) }));
    return { control, keywords: weighted, totalWeight: weighted.reduce((s, k) => s + k.weight, 0) };
  });
}
