/** Framework discovery: ranked candidates, whatever the service calls their fields. */
import type { z } from 'zod/v4/mini';
import type { frameworkCandidate, suggestResult } from '../schemas/responses.js';
import {
  type JsonObject,
  type NormalizeContext,
  defined,
  isRecord,
  objectOf,
  pickArray,
  pickBoolean,
  pickMode,
  pickNumber,
  pickText,
  toStringList,
  unexpected,
} from './read.js';

type FrameworkCandidateModel = z.output<typeof frameworkCandidate>;
type SuggestResultModel = z.output<typeof suggestResult>;

const LIST_NAMES = ['candidates', 'results', 'frameworks', 'suggestions', 'items', 'data'];
const NAME_NAMES = ['name', 'framework', 'frameworkName', 'title', 'standard', 'framework.name'];

/** 0..1, whether the service reports a fraction or a percentage. */
function fraction(value: number | undefined, percentScale: boolean): number | undefined {
  if (value === undefined) return undefined;
  const share = percentScale || value > 1 ? value / 100 : value;
  return Math.min(Math.max(share, 0), 1);
}

function candidateOf(raw: unknown, index: number, context: NormalizeContext): FrameworkCandidateModel {
  if (!isRecord(raw)) {
    if (typeof raw === 'string') return { rank: index + 1, name: raw, regulator: '', jurisdiction: '', sector: '', sourceUrl: '', confidence: 0, reasoning: '' };
    throw unexpected(context, `candidate ${index + 1} as an object`, ['an object'], raw);
  }
  const name = pickText(raw, NAME_NAMES);
  if (name === undefined) throw unexpected(context, `name of candidate ${index + 1}`, NAME_NAMES, raw);
  const percentScale = pickNumber(raw, ['confidencePercent', 'confidence_pct']) !== undefined;
  return defined({
    ...raw,
    rank: pickNumber(raw, ['rank', 'position', 'order']) ?? index + 1,
    slug: pickText(raw, ['slug', 'id', 'frameworkSlug', 'framework.slug']),
    name,
    regulator: pickText(raw, ['regulator', 'authority', 'issuer', 'issuingBody', 'body', 'publisher']) ?? '',
    jurisdiction: pickText(raw, ['jurisdiction', 'country', 'region', 'jurisdictions']) ?? toStringList(raw.jurisdictions)?.join(', ') ?? '',
    sector: pickText(raw, ['sector', 'domain', 'industry', 'sectors']) ?? toStringList(raw.sectors)?.join(', ') ?? '',
    sourceUrl: pickText(raw, ['sourceUrl', 'source_url', 'url', 'link', 'source', 'reference', 'source.url']) ?? '',
    // Unknown confidence ranks as none rather than failing the whole discovery.
    confidence: fraction(pickNumber(raw, ['confidence', 'confidencePercent', 'confidence_pct', 'score', 'probability', 'relevance']), percentScale) ?? 0,
    reasoning: pickText(raw, ['reasoning', 'rationale', 'reason', 'explanation', 'why', 'justification']) ?? '',
    verified: pickBoolean(raw, ['verified', 'isVerified']),
  }) as FrameworkCandidateModel;
}

export function normalizeSuggestResult(raw: unknown, context: NormalizeContext): SuggestResultModel {
  const object: JsonObject = Array.isArray(raw) ? { candidates: raw } : objectOf(raw, context, 'discovery result');
  const list = pickArray(object, LIST_NAMES);
  if (list === undefined) throw unexpected(context, 'candidate list', LIST_NAMES, object);
  const candidates = list.map((item, index) => candidateOf(item, index, context)).sort((a, b) => a.rank - b.rank);
  const warnings = toStringList(object.warnings ?? object.warning ?? object.notes);
  return defined({ ...object, mode: pickMode(object), candidates, warnings }) as SuggestResultModel;
}
