// Mutation testing of the shared API module and the review core (`npm run test:mutation`; not in CI):
// the report, the score per folder and why each surviving mutant is equivalent are in bench/MUTATION.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.mts', related: true },
  mutate: [
    'api/**/*.ts',
    'review/**/*.ts',
    '!**/*.d.ts',
    // Written by scripts/generate-client.mjs from the operation table; its tests check the generator.
    '!api/generated/**',
  ],
  coverageAnalysis: 'perTest',
  // vitest strips types without checking them, and a test compares a generated file to its text.
  disableTypeChecks: false,
  // A static mutant (one run while modules load, like a zod schema's declaration) would need the whole
  // unit tier per mutant; they are listed as ignored instead and counted in bench/MUTATION.md.
  ignoreStatic: true,
  // The machine has two cores shared with others; the unit project already runs two workers per runner.
  concurrency: 1,
  incremental: true,
  // Only speeds up reruns on this checkout, so kept out of git (it is keyed by the test files' text);
  // the results that accumulate across runs are bench/mutation/summary.json (scripts/mutation/run.mjs).
  incrementalFile: 'bench/out/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'json', 'progress'],
  jsonReporter: { fileName: 'bench/out/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0, reportTests: false },
  thresholds: { high: 90, low: 85, break: null },
  ignorePatterns: ['dist', 'bench/out', 'test-results', '.sandbox-data', 'coverage'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  timeoutMS: 10_000,
};
