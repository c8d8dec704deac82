/**
 * Validation of a new or updated job, in the order the real API applies it, with its status codes:
 *
 * 1. body not JSON / not matching the union → 422 FastAPI `detail` (jobs-schema.ts);
 *    the job name is checked first of all, by a field validator that raises the API's own error,
 *    so a bad name is 400 even when other fields are wrong (J `tjf/api/models.py validate_job_name`);
 * 2. rules of the core models → 400, worded as pydantic prints a `ValidationError` raised inside
 *    the handler ("1 validation error for CommonJob\n  Value error, …"): `mount: none` only with
 *    build-service images, file logs only with `mount: all`, HTTP health checks need a port;
 * 3. the cron schedule → 400 `Unable to parse cron expression "…" (cause)`;
 * 4. (after the 409 check of `POST`) the image must exist and cpu/memory must fit the container
 *    limits → 400 ({@link runtimeRejection}).
 */
import { CronParsingError, parseCron } from './jobs-cron';
import { resolveImage } from './jobs-images';
import { DEFAULT_CPU, DEFAULT_MEMORY, isBuildservice, type JobSpec } from './jobs-model';
import { publishRuleProblem } from './jobs-publish';
import { formatCpu, formatMemory, limitViolation } from './jobs-quantity';
import { type FastApiError, matchNewJob } from './jobs-schema';

/** RFC 1123 label(s), as Kubernetes requires for object names. */
export const JOBNAME_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** Cron jobs cannot have longer names, so the API caps every job name at this. */
export const JOBNAME_MAX_LENGTH = 52;

/** A rejected request: status and body as the real API answers. */
export interface Rejection {
  status: 400 | 404 | 409 | 422;
  body: unknown;
}

/** A body that passed every check up to the runtime ones. */
export interface ValidJob {
  spec: JobSpec;
  scheduleActual?: string;
}

/** The jobs API's error body. */
export const jobsError = (message: string) => ({ error: [message] });

const reject = (status: Rejection['status'], message: string): Rejection => ({
  status,
  body: jobsError(message),
});

/** The API's job name check; the 400 message, or undefined when the name is fine. */
export function jobNameProblem(name: string): string | undefined {
  const docs = 'See the documentation for the naming rules: https://w.wiki/6YL8';
  if (!name) return `Job name is required. ${docs}`;
  if (!JOBNAME_PATTERN.test(name)) return `Invalid job name. ${docs}`;
  if (name.length > JOBNAME_MAX_LENGTH) {
    return `Invalid job name, it can't be longer than ${JOBNAME_MAX_LENGTH} characters. ${docs}`;
  }
  return undefined;
}

/** A pydantic `ValidationError` raised in a handler, as the API's error handler prints it. */
const pydanticError = (model: string, message: string) =>
  `1 validation error for ${model}\n  Value error, ${message} [type=value_error, input_type=dict]`;

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; detail: FastApiError[] } {
  if (text.trim() === '') {
    return { ok: false, detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    return {
      ok: false,
      detail: [
        {
          type: 'json_invalid',
          loc: ['body', position ? Number(position) : 0],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: 'Expecting value' },
        },
      ],
    };
  }
}

/** Validates a `POST`/`PATCH /jobs` body for `tool` (steps 1–3 above). */
export function validateJobBody(tool: string, text: string): ValidJob | Rejection {
  const parsed = parseJson(text);
  if (!parsed.ok) return { status: 422, body: { detail: parsed.detail } };
  const body = parsed.value;
  if (body !== null && typeof body === 'object' && typeof (body as { name?: unknown }).name === 'string') {
    const problem = jobNameProblem((body as { name: string }).name);
    if (problem) return reject(400, problem);
  }
  const match = matchNewJob(body);
  if (!match.ok) return { status: 422, body: { detail: match.detail } };
  return validateSpec(tool, match.spec);
}

/** Normalises and checks a spec that already has the body's shape (steps 2–3). */
export function validateSpec(tool: string, input: JobSpec): ValidJob | Rejection {
  const nameError = jobNameProblem(input.name);
  if (nameError) return reject(400, nameError);
  const spec: JobSpec = { ...input };
  if (spec.memory !== undefined) spec.memory = formatMemory(spec.memory);
  if (spec.cpu !== undefined) spec.cpu = formatCpu(spec.cpu);

  const buildservice = isBuildservice(spec);
  if (spec.mount !== undefined && spec.mount !== 'all' && !buildservice) {
    return reject(
      400,
      pydanticError('CommonJob', `Mount type ${spec.mount} is only supported for build service images`),
    );
  }
  if (spec.filelog && spec.mount !== undefined && spec.mount !== 'all') {
    return reject(400, pydanticError('CommonJob', 'File logging is only available with --mount=all'));
  }
  const publishProblem = publishRuleProblem(spec);
  if (publishProblem) return reject(400, pydanticError('ContinuousJob', publishProblem));
  if (spec.job_type === 'continuous' && spec.health_check?.type === 'http' && !spec.port) {
    return reject(400, pydanticError('ContinuousJob', 'Port must be set for HTTP health checks'));
  }
  if (spec.job_type === 'scheduled') {
    const schedule = spec.schedule ?? '';
    try {
      return { spec, scheduleActual: parseCron(schedule, tool, spec.name) };
    } catch (error) {
      if (!(error instanceof CronParsingError)) throw error;
      return reject(400, `Unable to parse cron expression "${schedule}" (${error.message})`);
    }
  }
  return { spec };
}

/** The runtime's 400 (unknown image, cpu/memory outside the container limits), if any. */
export function runtimeRejection(spec: JobSpec): Rejection | undefined {
  if (!resolveImage(spec.imagename)) return reject(400, `No such image '${spec.imagename}'`);
  const problem = limitViolation(spec.cpu ?? DEFAULT_CPU, spec.memory ?? DEFAULT_MEMORY);
  return problem ? reject(400, problem) : undefined;
}

/** Whether a validation outcome is a rejection. */
export function isRejection(value: ValidJob | Rejection): value is Rejection {
  return 'status' in value;
}
