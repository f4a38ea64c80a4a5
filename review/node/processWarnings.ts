/**
 * Warnings a library emits (process.emitWarning) quote text the run did not write: a YAML warning
 * prints the repository's own line. Node writes them raw to stderr, where a runner reads a line
 * that starts with `::` as a workflow command; here they go, escaped to one line (logText), to the
 * surface's own printer instead.
 */
import { logText } from '../neutralise.js';

export function routeProcessWarnings(print: (line: string) => void): void {
  // Node's own printer is a listener like any other: without it, nothing reaches stderr unescaped.
  process.removeAllListeners('warning');
  process.on('warning', (warning) => print(logText(`${warning.name}: ${warning.message}`)));
}
