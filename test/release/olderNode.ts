/**
 * A Node binary older than 24 on this machine (the system node beside the Node 24 the tests run
 * on), to run built entries as a user with an old Node would; undefined when there is none.
 */
import { execFileSync } from 'node:child_process';

export function olderNode(): string | undefined {
  let candidates: string[] = [];
  try {
    candidates = execFileSync('which', ['-a', 'node'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    // `which` finds nothing: no candidates.
  }
  for (const node of [...new Set([...candidates, '/usr/bin/node', '/usr/local/bin/node'])]) {
    try {
      const major = Number(/^v(\d+)\./.exec(execFileSync(node, ['-v'], { encoding: 'utf8' }))?.[1]);
      if (major < 24) return node;
    } catch {
      // Not there or not runnable: try the next.
    }
  }
  return undefined;
}
