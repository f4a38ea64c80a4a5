import { defineConfig } from 'vitest/config';

// Suites that drive a real n8n (`*.real.test.ts`) rebuild the n8n package and start n8n: they run
// after everything else, one file at a time, so they never rebuild `dist` under each other.
const REAL_N8N = 'test/**/*.real.test.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON report feeds the plain "N passed, N failed" line that .ci/run prints last.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      { extends: true, test: { name: 'main', include: ['test/**/*.test.ts'], exclude: [REAL_N8N] } },
      { extends: true, test: { name: 'real-n8n', include: [REAL_N8N], fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
