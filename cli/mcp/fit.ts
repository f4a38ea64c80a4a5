/**
 * The last resort of answer.ts: a result still over RESULT_LIMIT_BYTES once its long part (if it
 * has one) is paged, such as one item over the limit by itself, has its longest lists (and, last,
 * its longest texts) shortened from the end until it fits; each cut is reported. Cutting keeps
 * every value of its type, so the result still matches the tool's outputSchema.
 */

/** 8 KB: what one tool result may put into an assistant's context by default. */
export const RESULT_LIMIT_BYTES = 8 * 1024;

export interface Cut {
  /** Where the list or text is, e.g. `result.gaps`. */
  path: string;
  shown: number;
  total: number;
  unit: 'items' | 'characters';
}

type Json = unknown;

const bytesOf = (value: Json) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/** The largest list (longer than one item) or text (longer than 200 characters) under `value`. */
function largest(value: Json, path: string): { path: string; holder: Record<string, unknown> | unknown[]; key: string | number; bytes: number } | undefined {
  let best: ReturnType<typeof largest>;
  const visit = (holder: Record<string, unknown> | unknown[], key: string | number, child: Json, at: string) => {
    const cuttable = (Array.isArray(child) && child.length > 1) || (typeof child === 'string' && child.length > 200);
    if (cuttable) {
      const bytes = bytesOf(child);
      if (!best || bytes > best.bytes) best = { path: at, holder, key, bytes };
    }
    const inner = largest(child, at);
    if (inner && (!best || inner.bytes > best.bytes)) best = inner;
  };
  if (Array.isArray(value)) value.forEach((child, index) => visit(value, index, child, `${path}[${index}]`));
  else if (value && typeof value === 'object') for (const [key, child] of Object.entries(value)) visit(value as Record<string, unknown>, key, child, `${path}.${key}`);
  return best;
}

/**
 * `value` (deep-copied) shortened until `JSON.stringify({ ...extra, [name]: value })` fits `limit`,
 * with the cuts made. Lists keep their first items, texts their beginning.
 */
export function fitWithin<T>(name: string, value: T, extra: Record<string, unknown>, limit = RESULT_LIMIT_BYTES): { value: T; cuts: Cut[] } {
  const copy = structuredClone(value) as Json;
  const cuts = new Map<string, Cut>();
  // Room for the cut notes themselves (a path and three numbers each).
  const size = () => bytesOf({ ...extra, [name]: copy }) + 160 * (cuts.size + 1);
  for (let guard = 0; size() > limit && guard < 200; guard++) {
    const target = largest(copy, name);
    if (!target) break;
    const current = (target.holder as Record<string | number, unknown>)[target.key] as unknown[] | string;
    const total = cuts.get(target.path)?.total ?? current.length;
    const over = size() - limit;
    // Cut in proportion to how far over the limit the whole is, at least a quarter of what is left.
    const keep = Math.max(1, Math.min(Math.floor(current.length * 0.75), Math.floor(current.length * (1 - over / target.bytes)) - 1));
    (target.holder as Record<string | number, unknown>)[target.key] = typeof current === 'string' ? `${current.slice(0, keep)}…` : current.slice(0, keep);
    cuts.set(target.path, { path: target.path, shown: keep, total, unit: typeof current === 'string' ? 'characters' : 'items' });
  }
  return { value: copy as T, cuts: [...cuts.values()] };
}
