/** The checked-out repository: compliance.yml (the `config` input) and the documents it selects. */
import { CONFIG_FILE_NAME, selectDocumentPaths, type BaseCommitFiles, type Config, type DocumentGroup, type RepoFile } from '../../review/index.js';
import { currentCiContext, currentEventPolicy, listRepoFiles, readBaseCommit, readConfigFileText, readRepoBytes, readRepoFiles } from '../../review/node/index.js';
import { workspaceRoot } from './github/context.js';
import { log } from './runtime/log.js';
import { textInput } from './runtime/inputs.js';

interface RepoConfig {
  /** The workspace (repository root). */
  root: string;
  /** The config's path relative to the root, as annotations name it. */
  path: string;
  config: Config;
  /** The file's text, for pointing annotations at lines. */
  text: string;
}

export function configPathInput(): string {
  return textInput('config') ?? CONFIG_FILE_NAME;
}

export async function loadRepoConfig(root: string = workspaceRoot()): Promise<RepoConfig> {
  const path = configPathInput();
  const { config, text } = await readConfigFileText(root, path);
  return { root, path, config, text };
}

/** Whether the config file exists (sync can run from its own inputs without one). */
export async function configExists(root: string): Promise<boolean> {
  return (await readRepoBytes(root, configPathInput())) !== undefined;
}

/** The repository's files the groups select, read as text (a glob matching nothing is an error). */
export async function readDocuments(root: string, groups: readonly DocumentGroup[]): Promise<RepoFile[]> {
  const selected = selectDocumentPaths(groups, await listRepoFiles(root));
  return readRepoFiles(root, selected.map((entry) => entry.path));
}

let baseRead: Promise<BaseCommitFiles | undefined> | undefined;

/**
 * On a gated event (a pull request, a merge-queue run, an unlisted event) the base commit, read from
 * git once per run: its compliance.yml is the gate, and git's list of what changed since it decides
 * what is in scope. Undefined on other events; throws `not_evaluated` when the clone lacks it.
 */
export function gatedBase(root: string = workspaceRoot()): Promise<BaseCommitFiles | undefined> {
  baseRead ??= (async () => {
    for (const input of ['base-config', 'changed-files']) {
      if (textInput(input)) log.notice(`${input} is ignored: the action reads the base commit's compliance.yml and the changed files from git itself.`, { title: 'Input ignored' });
    }
    const policy = currentEventPolicy();
    return policy.gateFromBaseBranch ? readBaseCommit(root, configPathInput(), currentCiContext(), policy) : undefined;
  })();
  return baseRead;
}
