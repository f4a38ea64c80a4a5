/**
 * What fails the gate, beside the threshold. A leaf module: the config schema validates it and the
 * gate applies it, so neither has to import the other.
 */

/** The threshold always counts; `new-gaps` and `declared-without-evidence` add their check to it. */
export const FAIL_ON = ['coverage', 'new-gaps', 'declared-without-evidence'] as const;
export type FailOn = (typeof FAIL_ON)[number];
