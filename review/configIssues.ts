/**
 * Where a problem of a YAML file is and what was meant: the line of a node by its path (a missing key
 * points at its parent), the path as people write it (`frameworks[0].threshold`), and the known key
 * an unknown one is a small edit away from. compliance.yml's errors are built from these.
 */
import { isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/** The known key `key` was likely meant to be (a small edit away), if any. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const best = known.map((candidate) => ({ candidate, d: editDistance(lower, candidate.toLowerCase()) })).sort((a, b) => a.d - b.d)[0];
  return best && best.d <= Math.max(1, Math.floor(key.length / 3)) ? best.candidate : undefined;
}

export type PathSegment = string | number;

export function formatPath(path: readonly PathSegment[]): string {
  return path.reduce<string>((out, seg) => (typeof seg === 'number' ? `${out}[${seg}]` : out ? `${out}.${seg}` : seg), '');
}

/** The offset of the node at `path`, or of the deepest ancestor present (a missing key points at its parent). */
export function locate(root: unknown, path: readonly PathSegment[], unknownKey?: string): number | undefined {
  let node = root as YamlNode | null | undefined;
  let offset = node?.range?.[0];
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(seg));
      if (!pair) return offset;
      const value = pair.value as YamlNode | null;
      offset = value?.range?.[0] ?? (pair.key as YamlNode).range?.[0] ?? offset;
      // An empty value (`threshold:`) has no meaningful place of its own: point at the key.
      if (isScalar(value) && value.value === null) offset = (pair.key as YamlNode).range?.[0] ?? offset;
      node = value;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg] as YamlNode | undefined;
      if (!item) return offset;
      offset = item.range?.[0] ?? offset;
      node = item;
    } else {
      return offset;
    }
  }
  if (unknownKey !== undefined && isMap(node)) {
    const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === unknownKey);
    return (pair?.key as YamlNode | undefined)?.range?.[0] ?? offset;
  }
  return offset;
}

export function valueAt(data: unknown, path: readonly PathSegment[]): unknown {
  let value = data;
  for (const seg of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PathSegment, unknown>)[seg];
  }
  return value;
}
