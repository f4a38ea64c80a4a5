import config from './vitest.config.mts';

// Mutation testing (stryker.config.mjs) runs the unit project alone: pure and in-process, fast enough
// to rerun per mutant; the e2e tiers exercise built bundles, which a mutant of the sources never reaches.
const projects = (config.test?.projects ?? []) as Array<{ test?: { name?: string } }>;

export default {
  ...config,
  test: { ...config.test, reporters: ['default'], projects: projects.filter((project) => project.test?.name === 'unit') },
};
