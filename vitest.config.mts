import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON report feeds the plain "N passed, N failed" line that .ci/run prints last.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
