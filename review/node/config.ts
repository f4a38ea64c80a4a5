/** compliance.yml, the drift manifest and baselines read from disk, with the file name in every error. */
import { CONFIG_FILE_NAME, parseConfig, type Config } from '../config.js';
import { ConfigError } from '../errors.js';
import { MANIFEST_PATH, parseManifest, serializeManifest, type GenerationManifest } from '../drift.js';
import { decodeUtf8, readRepoBytes, writeRepoFile } from './files.js';
import { readReportFile } from './report.js';

/**
 * Reads and validates the repo's compliance.yml (or `path`, a .yml or .yaml file relative to root and
 * inside it). A missing or invalid file throws ConfigError whose issues carry `path` as the file name.
 */
export async function readConfigFile(root: string, path: string = CONFIG_FILE_NAME): Promise<Config> {
  return (await readConfigFileText(root, path)).config;
}

/** readConfigFile with the file's text (a pull request's check compares it with the default branch's). */
export async function readConfigFileText(root: string, path: string = CONFIG_FILE_NAME): Promise<{ config: Config; text: string }> {
  // Only a YAML file is read as the configuration: naming another file under the root (a process's
  // /proc status, a key file) never gets it read, nor any of it into an error.
  if (!/\.ya?ml$/i.test(path)) {
    throw new ConfigError([{ file: path, line: undefined, column: undefined, path: '', message: 'is not a YAML file: the configuration is a .yml or .yaml file under the repository root (compliance.yml by default); nothing was read' }]);
  }
  const bytes = await readRepoBytes(root, path);
  if (bytes === undefined) {
    throw new ConfigError([{ file: path, line: undefined, column: undefined, path: '', message: `not found in ${root}: run \`compliance init\` to write a commented example` }]);
  }
  const text = decodeUtf8(bytes, path);
  return { config: parseConfig(text, path), text };
}

/** The drift manifest (.compliance/generated.json); an empty one when the file does not exist yet. */
export async function readManifest(root: string): Promise<GenerationManifest> {
  const bytes = await readRepoBytes(root, MANIFEST_PATH);
  return parseManifest(bytes === undefined ? undefined : decodeUtf8(bytes, MANIFEST_PATH));
}

/** Writes the drift manifest atomically; returns its absolute path. */
export async function writeManifest(root: string, manifest: GenerationManifest): Promise<string> {
  return writeRepoFile(root, MANIFEST_PATH, serializeManifest(manifest));
}

/**
 * The gap keys of a previous report (a review report JSON or raw mapping reports), for
 * `--fail-on new-gaps`. `path` is a plain file path (absolute or relative to the working directory).
 */
export async function loadBaseline(path: string): Promise<Set<string>> {
  return (await readReportFile(path, { role: 'baseline', acceptMappingReports: true })).gapKeys;
}
