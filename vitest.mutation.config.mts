import config from './vitest.config.mts';

// Mutation testing (stryker.config.mjs) runs the unit project alone: pure and in-process, fast enough
// to rerun per mutant; the e2e tiers exercise built bundles, which a mutant of the sources never reaches.
// Each test file gets its own modules here (the unit tier shares them per worker for speed): a schema
// or table built on first use and kept (`lazy`, `once`) would otherwise keep the mutant that was active
// when it was built, and Stryker would see the mutants inside it survive whatever the tests say.
const projects = (config.test?.projects ?? []) as Array<{ test?: { name?: string } }>;

export default {
  ...config,
  test: {
    ...config.test,
    reporters: ['default'],
    projects: projects.filter((project) => project.test?.name === 'unit').map((project) => ({ ...project, test: { ...project.test, isolate: true } })),
  },
};
