/**
 * The secret-leak check of the hardening suites. Everything the runs produce (CLI stdout/stderr,
 * action logs, job summaries, outputs, GitHub comment and issue bodies, sandbox logs, HTTP answers)
 * is handed to `collect`; `assertNoLeaks` (registered as afterAll by `guardLeaks`) fails the suite
 * when any registered secret occurs in any of it, verbatim or in a common encoding.
 */
import { afterAll, expect } from 'vitest';

const collected: Array<{ place: string; text: string }> = [];
const secrets = new Set<string>();

/** A secret used by the runs: the API keys and GitHub tokens. */
export function registerSecret(...values: string[]): void {
  for (const value of values) if (value.length >= 8) secrets.add(value);
}

export function collect(place: string, text: string | undefined | null): void {
  if (text) collected.push({ place, text });
}

export function collectedCount(): { places: number; bytes: number } {
  return { places: collected.length, bytes: collected.reduce((sum, entry) => sum + entry.text.length, 0) };
}

/** The forms a secret can take in text: verbatim, base64 (any alignment, also url-safe), URL-encoded, hex, JSON-escaped. */
export function encodings(secret: string): string[] {
  const forms = new Set<string>([secret, encodeURIComponent(secret), Buffer.from(secret).toString('hex'), JSON.stringify(secret).slice(1, -1)]);
  // base64 of the secret inside a larger string depends on its offset mod 3: take the stable middle part of each.
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset, 0x20), Buffer.from(secret)]).toString('base64');
    // Characters fully determined by the secret: whole 3-byte groups that hold only secret bytes.
    const stable = encoded.slice(4 * Math.ceil(offset / 3), 4 * Math.floor((offset + secret.length) / 3));
    if (stable.length >= 8) {
      forms.add(stable);
      forms.add(stable.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...forms];
}

export function findLeaks(texts: ReadonlyArray<{ place: string; text: string }>, secretList: Iterable<string>): string[] {
  const hits: string[] = [];
  for (const secret of secretList) {
    const forms = encodings(secret);
    for (const { place, text } of texts) {
      for (const form of forms) {
        if (text.includes(form)) hits.push(`${place}: contains ${form === secret ? 'the secret verbatim' : `an encoding of a secret (${form.slice(0, 6)}…)`} (${secret.slice(0, 9)}…)`);
      }
    }
  }
  return hits;
}

export function assertNoLeaks(): void {
  expect(secrets.size, 'no secrets were registered for the leak check').toBeGreaterThan(0);
  expect(findLeaks(collected, secrets)).toEqual([]);
}

/** Registers the leak check to run after every test of the calling file. */
export function guardLeaks(): void {
  afterAll(() => {
    // A suite that collected nothing proves nothing: the guard is only meaningful with material.
    expect(collected.length, 'the leak check saw no output').toBeGreaterThan(0);
    assertNoLeaks();
  });
}
