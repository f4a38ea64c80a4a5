/** "Did you mean": the closest known names to a mistyped command or option (pure, tiny: main.ts loads it). */

/** Optimal string alignment distance: a swapped pair of letters (`reveiw`) counts as one edit. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** Known names within a third of the typed length (at least 1, at most 3 edits) or starting with it, closest first. */
export function closest(typed: string, known: readonly string[], max = 3): string[] {
  const lower = typed.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(lower.length / 3)));
  return known
    .map((name) => ({ name, distance: lower.length >= 2 && name.startsWith(lower) ? 0.5 : editDistance(lower, name.toLowerCase()) }))
    .filter((entry) => entry.distance <= limit)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((entry) => entry.name);
}

/** ` Did you mean X?` / ` Did you mean X or Y?`, or '' when nothing is close. */
export function didYouMean(typed: string, known: readonly string[], format: (name: string) => string = (name) => name): string {
  const names = closest(typed, known).map(format);
  if (names.length === 0) return '';
  return `Did you mean ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`}?`;
}
