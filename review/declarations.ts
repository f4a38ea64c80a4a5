/**
 * Front matter declarations (`satisfies: { <framework slug>: [<control id>, …] }`) read from the
 * documents as committed; never sent to the service. The check against evidence is declaredCheck.ts.
 */
import { parse as parseYaml } from 'yaml';
import type { RepoFile } from './documents.js';
import { ReviewError } from './errors.js';
import type { Declaration } from './declaredCheck.js';
import { frontMatterBlock, YAML_LOG_LEVEL } from './frontMatter.js';

/** Every `satisfies:` entry of the files' front matter; a malformed one is an error naming the file and the fix. */
export function readDeclarations(files: readonly RepoFile[]): Declaration[] {
  const declarations: Declaration[] = [];
  for (const file of files) {
    const block = frontMatterBlock(file.content);
    if (!block || !/^satisfies\s*:/m.test(block.yaml)) continue;
    const fix = 'Write it as satisfies: { <framework slug>: [<control id>, …] }, for example satisfies: { soc2: [CC6.1, CC6.2] }.';
    let data: unknown;
    try {
      data = parseYaml(block.yaml, { schema: 'core', logLevel: YAML_LOG_LEVEL });
    } catch (error) {
      throw new ReviewError('invalid_config', `${file.path}: the front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`, fix);
    }
    const satisfies = (data as { satisfies?: unknown } | null)?.satisfies;
    if (satisfies === undefined || satisfies === null) continue;
    if (typeof satisfies !== 'object' || Array.isArray(satisfies)) {
      throw new ReviewError('invalid_config', `${file.path}: front matter satisfies must map framework slugs to lists of control ids`, fix);
    }
    for (const [framework, controls] of Object.entries(satisfies as Record<string, unknown>)) {
      const list = typeof controls === 'string' || typeof controls === 'number' ? [controls] : controls;
      if (!Array.isArray(list) || list.some((id) => typeof id !== 'string' && typeof id !== 'number')) {
        throw new ReviewError('invalid_config', `${file.path}: front matter satisfies.${framework} must be a list of control ids`, fix);
      }
      for (const id of list) declarations.push({ file: file.path, framework, controlId: String(id).trim() });
    }
  }
  return declarations;
}
