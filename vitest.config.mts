import { defineConfig } from 'vitest/config';
import { SANDBOX_TEST_DIRS } from './sandbox/testProject.mjs';

// Three layers of the test pyramid, chosen by file so no test file is renamed:
//   unit  in one process: pure functions, fakes (MockAgent, in-memory stores) and the sandbox started
//         in-process on loopback (the n8n nodes' fake contexts); no child process but git over a
//         temporary repository (review/node/git.ts reads git itself), no built bundle;
//   e2e   the sandbox over loopback, the built CLI, action and n8n bundles, packed tarballs;
//   real  a real n8n (`*.real.test.ts`): rebuilds the n8n package and starts n8n, one file at a time,
//         after everything else, so they never rebuild `dist` under each other.
// Beside them the sandbox package's own project, `sandbox`: every test of the sandbox where it sits
// (sandbox/testProject.mjs lists the folders), in-process and over its built CLI alike.
// `vitest run` runs all four; `npm run test:unit|test:e2e|test:real|test:sandbox` one each.
const REAL = 'test/**/*.real.test.ts';
const SANDBOX = SANDBOX_TEST_DIRS.map((dir) => `${dir}/**/*.test.ts`);
const UNIT = [
  'test/api/**/*.test.ts',
  'test/review/**/*.test.ts',
  'test/gate/gitBase.test.ts',
  'test/cli/unit/**/*.test.ts',
  'test/cli/repoFiles.test.ts',
  'test/actions/summary.test.ts',
  'test/hardening/badInputApi.test.ts',
  'test/templates/github/expressions.test.ts',
  'test/templates/github/static.test.ts',
  'test/templates/n8n/templates.static.test.ts',
  'test/n8n/unit/**/*.test.ts',
];
// Builds bundles or spawns processes although it sits in a unit folder: e2e.
const NOT_UNIT = ['test/api/build.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/tmpRoot.ts'],
    // The JSON report feeds the plain "N passed, N failed" line that .ci/run prints last.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      // One module graph per worker, not per file: with each file isolated, evaluating the same api/,
      // review/ and n8n imports again for every file was 40-60% of the tier. So a unit test mocks no
      // module and leaves no global state behind (an environment variable it sets, it restores).
      { extends: true, test: { name: 'unit', include: UNIT, exclude: [REAL, ...NOT_UNIT], isolate: false, maxWorkers: 2 } },
      { extends: true, test: { name: 'sandbox', include: SANDBOX, exclude: [REAL] } },
      { extends: true, test: { name: 'e2e', include: ['test/**/*.test.ts'], exclude: [REAL, ...UNIT, ...SANDBOX] } },
      { extends: true, test: { name: 'e2e-build', include: NOT_UNIT } },
      { extends: true, test: { name: 'real', include: [REAL], fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
