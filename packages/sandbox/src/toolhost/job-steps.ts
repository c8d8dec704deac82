/**
 * Lifecycle lengths of the sandbox's jobs, in steps (see jobs-engine.ts). A module of its own, with no
 * imports, so start-up can describe sandbox time without loading the emulator.
 */
export const JOB_STEPS = { pending: 1, run: 3, crashLimit: 3, schedulePeriod: 60 } as const;
