/** Secrets never reach a terminal or a log: every write goes through redact(). */
const secrets = new Set<string>();

/** Registers a value (API key, GitHub token) to be masked in everything the CLI prints. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 6) secrets.add(value);
}

/** `csk_live_…abcd`: the vendor prefix and the last four characters, never more. */
export function maskKey(key: string): string {
  const prefix = /^([a-z]+_(?:live|sandbox|test)_)/i.exec(key)?.[1] ?? /^([a-z]+_)/i.exec(key)?.[1] ?? '';
  return key.length <= 12 ? `${prefix}…` : `${prefix}…${key.slice(-4)}`;
}

export function redact(text: string): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(maskKey(secret));
  return out;
}
