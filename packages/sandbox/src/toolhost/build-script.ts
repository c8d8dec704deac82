/**
 * What an emulated build does, step by step: the log lines each step prints and how it ends. The
 * outcome is chosen from the source URL so that tests and humans can trigger every ending:
 * - contains `fail` → BUILD_FAILURE after the build step;
 * - contains `timeout` → BUILD_TIMEOUT after the last step;
 * - contains `stuck` → stays BUILD_RUNNING until cancelled or deleted (drives deployment timeouts);
 * - anything else → BUILD_SUCCESS.
 */

/** How a build ends. */
export type BuildOutcome = 'success' | 'failure' | 'timeout' | 'stuck';

/** Outcome for a source URL (see module doc). */
export function outcomeFor(sourceUrl: string): BuildOutcome {
  const url = sourceUrl.toLowerCase();
  if (url.includes('fail')) return 'failure';
  if (url.includes('timeout')) return 'timeout';
  if (url.includes('stuck')) return 'stuck';
  return 'success';
}

/** Inputs to the log lines. */
export interface ScriptInput {
  sourceUrl: string;
  ref: string;
  commit: string;
  image: string;
  digest: string;
}

/**
 * Log lines per running step (Tekton buildpacks containers, one `[step-…]` prefix each). A
 * failing build stops after step 2 with an error; a successful one exports in step 3.
 */
export function scriptLines(input: ScriptInput, outcome: BuildOutcome): string[][] {
  const steps: string[][] = [
    [
      '[step-init] Preparing the workspace',
      `[step-clone] + git clone ${input.sourceUrl} /workspace/source`,
      `[step-clone] Successfully cloned ${input.sourceUrl} @ ${input.commit} (${input.ref}) in path /workspace/source`,
      '[step-detect] ======== Results ========',
      '[step-detect] pass: heroku/python@0.0.0',
      '[step-detect] pass: heroku/procfile@3.0.0',
    ],
    [
      '[step-build] -----> Using Python version specified in runtime.txt',
      '[step-build] -----> Installing requirements with pip',
      '[step-build]        Collecting flask',
      outcome === 'failure'
        ? '[step-build] ERROR: No matching distribution found for a-package-that-does-not-exist'
        : '[step-build]        Successfully installed flask-3.0.3 werkzeug-3.0.3',
    ],
  ];
  if (outcome === 'failure') {
    steps[1]?.push('[step-build] ERROR: failed to build: exit status 1');
    return steps;
  }
  if (outcome === 'stuck' || outcome === 'timeout') return steps;
  steps.push([
    '[step-export] Adding layer heroku/python:dependencies',
    '[step-export] Adding label io.buildpacks.build.metadata',
    '[step-export] Saving ' + input.image,
    `[step-export] *** Images (sha256:${input.digest.slice(0, 12)}):`,
    `[step-export]       ${input.image}`,
    '[step-results] Build finished',
  ]);
  return steps;
}
