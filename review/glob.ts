/**
 * Glob matching for repo paths (POSIX separators, relative to the repo root), without node:path so
 * the review loop runs unchanged inside n8n. Supports `**`, `*`, `?`, `[...]` and `{a,b}`.
 * A `*` never crosses `/`; `**` as a whole segment matches zero or more segments.
 */

const cache = new Map<string, RegExp>();

export function isGlob(pattern: string): boolean {
  return /[*?[\]{}]/.test(pattern);
}

/** `./a//b` → `a/b`: the form paths are compared and stored in (the library `filename`). */
export function normaliseRepoPath(path: string): string {
  return path.replace(/\\/g, '/').replace(/\/{2,}/g, '/').replace(/^(\.\/)+/, '').replace(/^\/+/, '');
}

export function globToRegExp(pattern: string): RegExp {
  const cached = cache.get(pattern);
  if (cached) return cached;
  const regex = compileGlob(pattern);
  cache.set(pattern, regex);
  return regex;
}

/** The expression of one pattern, compiled afresh (globToRegExp keeps it): the rules above. */
export function compileGlob(pattern: string): RegExp {
  const source = normaliseRepoPath(pattern);
  let out = '';
  let braceDepth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === '*') {
      if (source[i + 1] === '*') {
        const atSegmentStart = i === 0 || source[i - 1] === '/';
        const atSegmentEnd = i + 2 === source.length || source[i + 2] === '/';
        if (atSegmentStart && atSegmentEnd) {
          // `**/` matches any number of leading directories, a trailing `**` everything below.
          if (source[i + 2] === '/') {
            out += '(?:[^/]*/)*';
            i += 2;
          } else {
            out += '.*';
            i += 1;
          }
          continue;
        }
        i += 1; // `a**b` behaves like `a*b`
      }
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const close = source.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
        continue;
      }
      let body = source.slice(i + 1, close);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body.replace(/\\/g, '\\\\')}]`;
      i = close;
    } else if (c === '{') {
      braceDepth++;
      out += '(?:';
    } else if (c === '}' && braceDepth > 0) {
      braceDepth--;
      out += ')';
    } else if (c === ',' && braceDepth > 0) {
      out += '|';
    } else {
      out += c.replace(/[.+^$()|\\\]{}]/g, '\\$&');
    }
  }
  if (braceDepth > 0) throw new Error(`unclosed "{" in glob ${pattern}`);
  return new RegExp(`^${out}$`);
}

export function matchesGlob(pattern: string, path: string): boolean {
  return globToRegExp(pattern).test(normaliseRepoPath(path));
}
