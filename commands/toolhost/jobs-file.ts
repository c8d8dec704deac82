/**
 * The jobs file of `toolforge jobs load` / `jobs dump`: a YAML list of jobs, each with the Toolforge
 * CLI's option names (`name`, `command`, `image`, `schedule`, `continuous`, `mem`, `cpu`, `retry`,
 * `emails`, `no-filelog`, `filelog-stdout`, `filelog-stderr`: JC `tjf_cli/loader.py KNOWN_YAML_KEYS`;
 * and the newer `replicas`, `port`, `mount`, `timeout`, `filelog`, `health-check-script`,
 * `health-check-http` of `toolforge jobs run`). Converted to and from the jobs API's job bodies.
 * `wait` (the CLI waits for a one-off job to finish) is accepted and has no effect here: follow a
 * one-off run with `/jobs run … --wait`. Unknown keys are refused (the CLI only warns), so a typo
 * never silently drops a setting.
 */

import { UsageError } from '../../src/core/errors';
import { type Translator, translator } from '../../src/i18n/translate';
import { type Job, type NewJob, NewJobSchema } from '../../src/services/toolhost';
import { stringify } from '../yaml';
import { cronProblem } from './cron';

/** Keys a job of the file may have. */
const KNOWN_KEYS = [
  'name',
  'command',
  'image',
  'schedule',
  'continuous',
  'replicas',
  'port',
  'mem',
  'cpu',
  'retry',
  'timeout',
  'emails',
  'mount',
  'filelog',
  'no-filelog',
  'filelog-stdout',
  'filelog-stderr',
  'health-check-script',
  'health-check-http',
  'publish',
  'wait',
] as const;

const CONTINUOUS_ONLY = ['replicas', 'port', 'publish', 'health-check-script', 'health-check-http'];

/** The definition fields of a job body, the ones `jobs load` compares and `PATCH /jobs` replaces. */
export const DEFINITION_FIELDS = [
  'name',
  'cmd',
  'imagename',
  'job_type',
  'filelog',
  'filelog_stdout',
  'filelog_stderr',
  'emails',
  'mount',
  'memory',
  'cpu',
  'retry',
  'schedule',
  'timeout',
  'replicas',
  'port',
  'port_protocol',
  'health_check',
  'publish',
] as const;

/** A job's definition as plain data: only the fields that are set (nulls left out). */
export function definitionOf(job: Job | NewJob): Record<string, unknown> {
  const source = job as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of DEFINITION_FIELDS) {
    const value = source[field];
    if (value !== undefined && value !== null) out[field] = value;
  }
  return out;
}

const MEMORY_UNITS: Record<string, number> = {
  '': 1,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
};

/** A Kubernetes quantity as a number (bytes, or cores for `cpu`); the text itself when it is not one. */
function quantity(value: unknown, cpu: boolean): unknown {
  if (typeof value !== 'string') return value;
  const match = cpu
    ? /^(\d+(?:\.\d+)?)(m?)$/.exec(value)
    : /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|K|M|G|T)?$/.exec(value);
  if (!match) return value;
  const amount = Number(match[1]);
  return cpu ? (match[2] === 'm' ? amount / 1000 : amount) : amount * (MEMORY_UNITS[match[2] ?? ''] ?? 1);
}

/**
 * A definition to compare: memory and CPU as amounts, since the platform stores them rewritten
 * (`512Mi` comes back as `0.5Gi`), which is no change.
 */
export function comparable(definition: Record<string, unknown>): Record<string, unknown> {
  return { ...definition, memory: quantity(definition.memory, false), cpu: quantity(definition.cpu, true) };
}

/** A refusal of the file, said in the reader's words. */
const refused = (message: (say: Translator) => string, hint?: (say: Translator) => string) =>
  UsageError.inWords((say) => ({ message: message(say), ...(hint ? { hint: hint(say) } : {}) }));

/** One entry of the file as a job body; throws a usage error naming the job and the key. */
function entryToJob(entry: unknown, n: number): NewJob {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
    throw refused((say) => say.t('jobs-file-not-mapping', n));
  }
  const e = entry as Record<string, unknown>;
  const name = e.name;
  const who = (say: Translator) =>
    typeof name === 'string' && name ? say.t('jobs-file-job', name) : say.t('jobs-file-job-number', n);
  const unknown = Object.keys(e).filter((key) => !(KNOWN_KEYS as readonly string[]).includes(key));
  if (unknown.length) {
    throw refused(
      (say) => say.t('jobs-file-unknown-option', unknown.map((k) => `'${k}'`).join(', '), who(say)),
      (say) => say.t('jobs-file-known-options', KNOWN_KEYS.join(', ')),
    );
  }
  for (const key of ['name', 'command', 'image'] as const) {
    if (typeof e[key] !== 'string' || e[key] === '')
      throw refused((say) => say.t('jobs-file-missing', who(say), key));
  }
  const continuous = e.continuous === true;
  const schedule = e.schedule;
  if (schedule !== undefined && continuous)
    throw refused((say) => say.t('jobs-file-schedule-and-continuous', who(say)));
  if (!continuous) {
    const used = CONTINUOUS_ONLY.find((key) => e[key] !== undefined);
    if (used) throw refused((say) => say.t('jobs-file-continuous-only', who(say), used));
  }
  if (typeof schedule === 'string' && cronProblem(schedule, translator('en'))) {
    throw refused((say) => say.t('jobs-file-invalid-schedule', who(say), cronProblem(schedule, say) ?? ''));
  }
  if (e.filelog !== undefined && e['no-filelog'] !== undefined)
    throw refused((say) => say.t('jobs-file-filelog-both', who(say)));
  const filelog =
    e.filelog !== undefined ? e.filelog : e['no-filelog'] !== undefined ? !e['no-filelog'] : undefined;
  const healthCheck =
    e['health-check-http'] !== undefined
      ? { type: 'http', path: e['health-check-http'] }
      : e['health-check-script'] !== undefined
        ? { type: 'script', script: e['health-check-script'] }
        : undefined;
  const body: Record<string, unknown> = {
    name: e.name,
    cmd: e.command,
    imagename: e.image,
    job_type: continuous ? 'continuous' : schedule !== undefined ? 'scheduled' : 'one-off',
    schedule,
    replicas: e.replicas,
    port: e.port,
    publish: e.publish,
    memory: e.mem,
    cpu: e.cpu,
    retry: e.retry,
    timeout: e.timeout,
    emails: e.emails,
    mount: e.mount,
    filelog,
    filelog_stdout: e['filelog-stdout'],
    filelog_stderr: e['filelog-stderr'],
    health_check: healthCheck,
  };
  const defined = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const parsed = NewJobSchema.safeParse(defined);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    throw refused((say) => `${who(say)}: ${field ? `${field}: ` : ''}${issue?.message ?? 'invalid'}.`);
  }
  return defined as NewJob;
}

/** The jobs of a parsed jobs file, checked; duplicate names are refused. */
export function jobsFromFile(value: unknown, fileName: string | ((say: Translator) => string)): NewJob[] {
  const file = (say: Translator) => (typeof fileName === 'string' ? fileName : fileName(say));
  if (!Array.isArray(value)) {
    throw refused((say) => say.t('jobs-file-not-a-list', file(say)));
  }
  const jobs = value.map((entry, i) => entryToJob(entry, i + 1));
  const seen = new Set<string>();
  for (const job of jobs) {
    if (seen.has(job.name)) throw refused((say) => say.t('jobs-file-twice', job.name, file(say)));
    seen.add(job.name);
  }
  return jobs;
}

/** One job as an entry of the file (only the fields that were set). */
export function jobToEntry(job: Job | NewJob): Record<string, unknown> {
  const d = definitionOf(job);
  const health = d.health_check as { type: string; path?: string; script?: string } | undefined;
  const entry: Record<string, unknown> = {
    name: d.name,
    command: d.cmd,
    image: d.imagename ?? (job as Job).image,
    ...(d.job_type === 'continuous' ? { continuous: true } : {}),
    schedule: d.schedule,
    replicas: d.replicas,
    port: d.port,
    publish: d.publish,
    mem: d.memory,
    cpu: d.cpu,
    retry: d.retry,
    timeout: d.timeout,
    emails: d.emails,
    mount: d.mount,
    filelog: d.filelog,
    'filelog-stdout': d.filelog_stdout,
    'filelog-stderr': d.filelog_stderr,
    ...(health?.type === 'http' ? { 'health-check-http': health.path } : {}),
    ...(health?.type === 'script' ? { 'health-check-script': health.script } : {}),
  };
  return Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined));
}

/** The jobs as a jobs file (YAML). */
export function jobsFileText(tool: string, jobs: readonly Job[], say: Translator): string {
  const header = `# ${say.t('jobs-file-header', tool)}\n`;
  return header + stringify(jobs.map(jobToEntry));
}
