/** Lines of compliance.yml that annotations and SARIF results point at. */

/** 1-based line of a `key: value` entry (optionally a list item, quoted or not), or undefined. */
export function configLine(configText: string | undefined, key: string, value: string): number | undefined {
  if (!configText) return undefined;
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^\\s*-?\\s*${key}:\\s*["']?${escaped}["']?\\s*(#.*)?$`, 'i');
  const index = configText.split(/\r?\n/).findIndex((line) => pattern.test(line));
  return index >= 0 ? index + 1 : undefined;
}
