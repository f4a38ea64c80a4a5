/**
 * Declared vs evidenced, as strongdm/comply lists it: a document's front matter may say
 * `satisfies: { <framework slug>: [<control id>, …] }`. The report lists, per framework, controls
 * declared but not evidenced (with the declaring files) and controls evidenced but declared nowhere;
 * `fail-on: declared-without-evidence` fails the gate on the first kind. This half is the check
 * (the gate's, bundled by the n8n nodes too: no dependencies); declarations.ts reads the YAML.
 */

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
