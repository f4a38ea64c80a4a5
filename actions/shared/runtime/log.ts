/**
 * The only way the actions print. `core.info` writes its text to stdout as it is, and the runner
 * executes any line that reads as a workflow command, so every line passes review/'s `logText`
 * (line breaks and control characters shown escaped, command markers broken): a file name, title,
 * document text or config value can reach the log but never speak to the runner. Annotations are
 * escaped by @actions/core as command data; their text passes `logText` line by line too (no ANSI
 * escapes, no markers). ESLint refuses core's printing functions anywhere else in actions/.
 */
import * as core from '@actions/core';
import { logText } from '../../../review/neutralise.js';

/** Our own multi-line messages (a list of config problems) keep their lines; values in them cannot add one. */
const escapeLines = (message: string) => message.split('\n').map(logText).join('\n');

const escapeProperties = (properties: core.AnnotationProperties = {}): core.AnnotationProperties =>
  properties.title === undefined ? properties : { ...properties, title: logText(properties.title) };

export const log = {
  info: (line: string): void => core.info(logText(line)),
  debug: (message: string): void => core.debug(escapeLines(message)),
  notice: (message: string, properties?: core.AnnotationProperties): void => core.notice(escapeLines(message), escapeProperties(properties)),
  warning: (message: string, properties?: core.AnnotationProperties): void => core.warning(escapeLines(message), escapeProperties(properties)),
  error: (message: string, properties?: core.AnnotationProperties): void => core.error(escapeLines(message), escapeProperties(properties)),
  /** Ends the step failed (an error line) with the message. */
  setFailed: (message: string): void => core.setFailed(escapeLines(message)),
};
