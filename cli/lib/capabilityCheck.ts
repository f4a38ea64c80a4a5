/**
 * compliance.yml against what the service offers (GET /capabilities, free): every framework to map
 * is a verified one, named unambiguously, and every document type to generate exists. Run by
 * `config check` and by `generate` before anything is charged: a wrong type would otherwise be sent
 * and refused (400 unknown_document_type).
 */
import type { Config } from '../../review/config.js';
import { ConfigError, type ConfigIssue } from '../../review/errors.js';
import { frameworkCandidates, type FrameworkRef } from './frameworkMatch.js';
import { didYouMean } from './suggest.js';

interface Capabilities {
  verifiedFrameworks: readonly FrameworkRef[];
  documentTypes: ReadonlyArray<{ id: string }>;
}

/** The problems, one per wrong entry (empty: all good). */
export function capabilityIssues(config: Pick<Config, 'frameworks' | 'generate'>, capabilities: Capabilities, file: string): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const issue = (path: string, message: string) => issues.push({ file, line: undefined, column: undefined, path, message });
  const slugs = capabilities.verifiedFrameworks.map((f) => f.slug);
  config.frameworks.forEach((entry, i) => {
    const candidates = frameworkCandidates(entry.framework, capabilities.verifiedFrameworks);
    if (candidates.length === 0) {
      const suggestion = didYouMean(entry.framework, slugs);
      issue(`frameworks[${i}].framework`, `"${entry.framework}" is not a verified framework${suggestion ? `. ${suggestion}` : ''} (compliance frameworks list)`);
    } else if (candidates.length > 1) {
      issue(`frameworks[${i}].framework`, `"${entry.framework}" matches ${candidates.map((f) => f.slug).join(', ')}: name one by its slug`);
    }
  });
  const types = capabilities.documentTypes.map((t) => t.id);
  if (types.length > 0) {
    config.generate.forEach((entry, i) => {
      if (types.includes(entry.type)) return;
      const suggestion = didYouMean(entry.type, types);
      issue(`generate[${i}].type`, `unknown document type "${entry.type}"${suggestion ? `. ${suggestion}` : ''}; the service generates: ${types.join(', ')}`);
    });
  }
  return issues;
}

export function assertCapabilities(config: Pick<Config, 'frameworks' | 'generate'>, capabilities: Capabilities, file: string): void {
  const issues = capabilityIssues(config, capabilities, file);
  if (issues.length > 0) throw new ConfigError(issues);
}
