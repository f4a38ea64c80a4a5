/** The documented exit codes (re-exported by errors.ts, which maps errors to them). */
export const EXIT = { ok: 0, gateFailed: 1, usage: 2, service: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = exitCodesHelp(true);

/** The exit code lines; exit 1 only for commands that gate (review, map). */
export function exitCodesHelp(gate: boolean): string {
  return [
    'Exit codes:',
    gate ? '  0  ok (the gate passed, or nothing to judge)' : '  0  ok',
    ...(gate ? ['  1  gate failed: coverage below the threshold, new gaps, expired waivers counting again'] : []),
    '  2  usage or configuration error (flags, compliance.yml, files); nothing was spent',
    '  3  service, auth, billing or budget error (including a refused --max-tokens plan)',
  ].join('\n');
}
