/** Where a job's output goes: files in the tool home, or the log service. */
import type { Translator } from '../../src/i18n/translate';
import type { Job } from '../../src/services/toolhost';

/** A path in the tool's home written as `~/…` (as the tool's maintainers know it). */
function homePath(tool: string, path: string): string {
  const home = `/data/project/${tool}/`;
  return path.startsWith(home) ? `~/${path.slice(home.length)}` : path;
}

/**
 * Where a job's output goes, in words: files in the tool home (`~/<job>.out`, `~/<job>.err` unless
 * set otherwise), or the log service. Undefined when the answer does not say (a dump-style view).
 */
export function outputPlace(tool: string, job: Job, say: Translator): string | undefined {
  if (job.filelog === true) {
    const out = homePath(tool, job.filelog_stdout ?? `/data/project/${tool}/${job.name}.out`);
    const err = homePath(tool, job.filelog_stderr ?? `/data/project/${tool}/${job.name}.err`);
    return out === err ? say.t('job-output-file', out) : say.t('job-output-files', out, err);
  }
  if (job.filelog === false) return say.t('job-output-log-service', tool, job.name);
  return undefined;
}
