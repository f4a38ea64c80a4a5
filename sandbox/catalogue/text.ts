/** Text handling shared by lookup and discovery: normalisation, tokenisation, light stemming. */

/** Lower case, accents removed, everything but letters and digits dropped: "ISO/IEC 27001:2022" → "isoiec270012022". */
export function compactKey(text: string): string {
  return foldAccents(text).toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function foldAccents(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

const STOPWORDS = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'can', 'do', 'does', 'for', 'from', 'has', 'have', 'how', 'i', 'if',
  'in', 'into', 'is', 'it', 'its', 'me', 'my', 'need', 'needs', 'of', 'on', 'or', 'our', 'should', 'so', 'that', 'the',
  'their', 'them', 'there', 'these', 'they', 'this', 'to', 'under', 'we', 'what', 'when', 'which', 'who', 'with',
  'would', 'you', 'your', 'about', 'any', 'all', 'apply', 'applies', 'must', 'want', 'looking', 'help',
  'comply', 'complying', 'compliance', 'compliant', 'requirements', 'requirement', 'rules', 'rule', 'law', 'laws',
  'regulation', 'regulations', 'standard', 'standards', 'framework', 'frameworks', 'company', 'business', 'organisation',
  'organization', 'handle', 'handling', 'use', 'using', 'based', 'also', 'some', 'other', 'get', 'us', 'e', 'g', 'etc',
]);

/** Words too generic to discriminate between frameworks on their own (still used for phrase matches). */
function isStopword(token: string): boolean {
  return STOPWORDS.has(token);
}

/** A deliberately light stemmer, applied identically to queries and catalogue text. */
export function stem(token: string): string {
  let t = token;
  if (t.length > 4 && t.endsWith('ies')) return `${t.slice(0, -3)}y`;
  if (t.length > 4 && t.endsWith('sses')) return t.slice(0, -2);
  if (t.length > 3 && t.endsWith('s') && !/(ss|us|is)$/.test(t)) t = t.slice(0, -1);
  if (t.length > 6 && t.endsWith('ing')) t = t.slice(0, -3);
  else if (t.length > 5 && t.endsWith('ed')) t = t.slice(0, -2);
  if (t.length > 4 && t.endsWith('e')) t = t.slice(0, -1);
  return t;
}

/** Lower-case word tokens, accents folded; `'s` dropped. */
export function words(text: string): string[] {
  return foldAccents(text)
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Content tokens: stemmed words without stopwords. */
export function contentTokens(text: string): string[] {
  return words(text).filter((w) => !isStopword(w)).map(stem);
}

/** Whether `phrase` (as words) occurs as a contiguous run inside `haystack` (as words), both stemmed. */
export function containsPhrase(haystack: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0 || phrase.length > haystack.length) return false;
  outer: for (let i = 0; i + phrase.length <= haystack.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (haystack[i + j] !== phrase[j]) continue outer;
    return true;
  }
  return false;
}

/** Similarity of two strings by shared character trigrams (Dice coefficient), 0..1. */
export function trigramSimilarity(a: string, b: string): number {
  const grams = (s: string): Map<string, number> => {
    const padded = `  ${s} `;
    const map = new Map<string, number>();
    for (let i = 0; i + 3 <= padded.length; i++) {
      const g = padded.slice(i, i + 3);
      map.set(g, (map.get(g) ?? 0) + 1);
    }
    return map;
  };
  const ga = grams(a);
  const gb = grams(b);
  let shared = 0;
  let total = 0;
  for (const [g, n] of ga) {
    shared += Math.min(n, gb.get(g) ?? 0);
    total += n;
  }
  for (const n of gb.values()) total += n;
  return total === 0 ? 0 : (2 * shared) / total;
}
