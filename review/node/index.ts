// Node adapters of the review loop: the repo's files, compliance.yml, the drift manifest and
// baselines on disk. Shared by the CLI and the GitHub Actions; no process.exit or console here.
export * from './files.js';
export * from './config.js';
export * from './report.js';
export * from './publish.js';
export * from './ciContext.js';
export * from './git.js';
export * from './baseCommit.js';
export * from './mappingStore.js';
export * from './processWarnings.js';
