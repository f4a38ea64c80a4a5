/**
 * Vitest global setup: every temporary directory of the run (the tests' own, and those of the
 * processes they start: the actions' runner folders, n8n's user folder, Chromium's profile,
 * Postgres) goes under one root that is removed when the run ends, so a run leaves nothing in the
 * system's temporary folder, even when a test fails before its own clean-up. It also says, once, which
 * real suites this run skips for a missing system package (test/systemPackages.ts).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { skipSummary } from './systemPackages.js';

export default function setup(): () => void {
  const skipping = skipSummary();
  if (skipping) console.warn(skipping);
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'compliance-tests-'));
  // As open as the system's temporary folder: the queue-mode suite runs Postgres as its own user,
  // which must reach its data directory below this root (mkdtemp makes it 0700).
  chmodSync(root, 0o1777);
  // Read by os.tmpdir() at each call, in this process and every worker and child it starts.
  process.env.TMPDIR = root;
  // The embedded sandbox's per-user state, for every CLI a test starts with the environment inherited
  // (one started with an environment of its own and no HOME keeps nothing).
  const previousData = process.env.COMPLIANCE_DATA_DIR;
  process.env.COMPLIANCE_DATA_DIR = join(root, 'compliance-data');
  return () => {
    if (previousData === undefined) delete process.env.COMPLIANCE_DATA_DIR;
    else process.env.COMPLIANCE_DATA_DIR = previousData;
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
