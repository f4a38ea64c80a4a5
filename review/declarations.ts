/**
 * Declared vs evidenced, as strongdm/comply lists it: a document's front matter may say
 * `satisfies: { <framework slug>: [<control id>, …] }`. The report lists, per framework, controls
 * declared but not evidenced (with the declaring files) and controls evidenced but declared nowhere;
 * `fail-on: declared-without-evidence` fails the gate on the first kind. Declarations are read
 * from the files as committed and never sent to the service.
 */
import { parse as parseYaml } from 'yaml';
import type { RepoFile } from './documents.js';
import { ReviewError } from './errors.js';
import { frontMatterBlock } from './frontMatter.js';

export interface Declaration {
  /** Repo path of the declaring document. */
  file: string;
  /** The framework as the front matter names it (slug, name or compliance.yml's value). */
  framework: string;
  controlId: string;
}

export interface DeclaredCheck {
  /** Controls of this framework that some document declares. */
  declared: number;
  declaredWithoutEvidence: Array<{ controlId: string; files: string[] }>;
  /** Controls with evidence (covered or partial) that no document declares. */
  evidencedUndeclared: string[];
}

/** Every `satisfies:` entry of the files' front matter; a malformed one is an error naming the file and the fix. */
export function readDeclarations(files: readonly RepoFile[]): Declaration[] {
  const declarations: Declaration[] = [];
  for (const file of files) {
    const block = frontMatterBlock(file.content);
    if (!block || !/^satisfies\s*:/m.test(block.yaml)) continue;
    const fix = 'Write it as satisfies: { <framework slug>: [<control id>, …] }, for example satisfies: { soc2: [CC6.1, CC6.2] }.';
    let data: unknown;
    try {
      data = parseYaml(block.yaml, { schema: 'core' });
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

/**
 * Declared vs evidenced for one framework, named by any of `frameworkNames` (case-insensitive);
 * undefined when no document declares anything at all (the check is opt-in).
 */
export function checkDeclarations(
  declarations: readonly Declaration[],
  frameworkNames: ReadonlyArray<string | undefined>,
  controls: ReadonlyArray<{ id: string; status: 'covered' | 'partial' | 'missing' }>,
): DeclaredCheck | undefined {
  if (declarations.length === 0) return undefined;
  const names = new Set(frameworkNames.filter((name): name is string => Boolean(name)).map((name) => name.trim().toLowerCase()));
  const filesOf = new Map<string, { controlId: string; files: string[] }>();
  for (const declaration of declarations) {
    if (!names.has(declaration.framework.trim().toLowerCase())) continue;
    const id = declaration.controlId.toLowerCase();
    const entry = filesOf.get(id) ?? { controlId: declaration.controlId, files: [] };
    if (!entry.files.includes(declaration.file)) entry.files.push(declaration.file);
    filesOf.set(id, entry);
  }
  const statusOf = new Map(controls.map((control) => [control.id.trim().toLowerCase(), control.status]));
  const evidenced = (id: string) => {
    const status = statusOf.get(id);
    return status === 'covered' || status === 'partial';
  };
  return {
    declared: filesOf.size,
    declaredWithoutEvidence: [...filesOf.entries()].filter(([id]) => !evidenced(id)).map(([, entry]) => entry),
    evidencedUndeclared: controls.filter((control) => evidenced(control.id.trim().toLowerCase()) && !filesOf.has(control.id.trim().toLowerCase())).map((control) => control.id),
  };
}
