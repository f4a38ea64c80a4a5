// The sandbox package's own tests and benchmarks, where they sit today (outside sandbox/, beside the
// other areas' tests). Read by vitest.config.mts (the `sandbox` project) and by the layer rule of
// `npm run lint`: only these files may import the sandbox's internals; everything else goes through
// sandbox/index.ts.

/** Folders whose tests (`*.test.ts`) form the `sandbox` vitest project, and whose helpers may read internals. */
export const SANDBOX_TEST_DIRS = ['test/sandbox', 'test/library', 'test/catalogue', 'test/formats', 'test/mapping'];

/** Test support outside those folders that measures internals: the mapping evaluation fixtures and benchmarks. */
export const SANDBOX_INTERNAL_READERS = [...SANDBOX_TEST_DIRS, 'test/fixtures/evaluation', 'bench/library.ts', 'bench/mappingEval.ts'];
