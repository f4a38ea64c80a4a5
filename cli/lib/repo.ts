/** The repository a command works on: its root, compliance.yml and the documents it selects. */
import { resolve } from 'node:path';
import { CONFIG_FILE_NAME, type Config } from '../../review/config.js';
import { selectDocumentPaths, type RepoFile } from '../../review/documents.js';
import { driftInputPaths, type GenerationManifest } from '../../review/drift.js';
import { listRepoFiles, readOptionalRepoFiles, readRepoFiles } from '../../review/node/files.js';
import { readConfigFileText, readManifest } from '../../review/node/config.js';
import { stringFlag, type Parsed } from './args.js';

export interface Repo {
  root: string;
  configPath: string;
  config: Config;
  /** compliance.yml's text; undefined when the config comes from the command line. */
  configText?: string | undefined;
}

export function repoRoot(parsed: Parsed): string {
  return resolve(stringFlag(parsed.values, 'cwd') ?? '.');
}

export async function loadRepo(parsed: Parsed): Promise<Repo> {
  const root = repoRoot(parsed);
  const configPath = stringFlag(parsed.values, 'config') ?? CONFIG_FILE_NAME;
  const { config, text } = await readConfigFileText(root, configPath);
  return { root, configPath, config, configText: text };
}

/** The files the config's document groups select (a glob matching nothing is an error), read as UTF-8. */
export async function loadDocuments(repo: Repo): Promise<RepoFile[]> {
  const selected = selectDocumentPaths(repo.config.documents, await listRepoFiles(repo.root));
  return readRepoFiles(repo.root, selected.map((entry) => entry.path));
}

/** The drift manifest and the current generated files, for drift detection. */
export async function loadGenerated(repo: Repo): Promise<{ manifest: GenerationManifest; files: Record<string, Uint8Array | undefined> }> {
  return { manifest: await readManifest(repo.root), files: await readOptionalRepoFiles(repo.root, driftInputPaths(repo.config.generate)) };
}
