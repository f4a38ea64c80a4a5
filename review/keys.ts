/**
 * Stable identities: a framework key and a gap key per framework and control. Gap issues are found
 * again by their key and baselines compare keys, so these must never change shape.
 */

/** `NIST CSF 2.0` → `nist-csf-2-0`. */
export function slugify(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'framework';
}

/** The report's slug when the service gives one, else the slug of its (or the configured) name. */
export function frameworkKey(framework: { slug?: string | undefined; name?: string | undefined }, configured?: string): string {
  const slug = framework.slug?.trim();
  if (slug) return slug.toLowerCase();
  return slugify(framework.name ?? configured ?? '');
}

/** `<framework key>/<control id>`, percent-encoded so it is safe inside an HTML comment marker. */
export function gapKey(frameworkKeyValue: string, controlId: string): string {
  return `${encodeURIComponent(frameworkKeyValue)}/${encodeURIComponent(controlId.trim())}`;
}

export function frameworkOfGapKey(key: string): string {
  return decodeURIComponent(key.slice(0, Math.max(0, key.indexOf('/'))));
}

export function controlOfGapKey(key: string): string {
  return decodeURIComponent(key.slice(key.indexOf('/') + 1));
}
