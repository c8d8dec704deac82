/**
 * Request bodies of `POST`/`PATCH /jobs` and FastAPI's 422 for the ones that do not fit.
 *
 * The real body type is the pydantic union `NewOneOffJob | NewScheduledJob | NewContinuousJob`, each
 * with `extra="forbid"` (J `tjf/api/models.py`). FastAPI validates it before the handler runs and
 * answers 422 `{"detail":[{type, loc, msg, input}]}` with the errors of every union member, each
 * `loc` naming the member (`["body","NewOneOffJob","cmd"]`). So a `retry` out of 0–5, a `retry` on a
 * continuous job, an unknown field, a wrong type or a memory/CPU that is not a quantity are all 422;
 * the rules checked inside the handler are 400 (see jobs-validate.ts).
 */
import { z } from 'zod';
import type { JobSpec } from './jobs-model';
import { parseQuantity } from './jobs-quantity';

/** One entry of FastAPI's 422 `detail`. */
export interface FastApiError {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

const quantity = z.string().superRefine((value, ctx) => {
  try {
    parseQuantity(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message, params: { pydantic: 'value_error' } });
  }
});

const common = {
  name: z.string(),
  cmd: z.string(),
  imagename: z.string(),
  filelog: z.boolean().optional(),
  filelog_stdout: z.string().nullable().optional(),
  filelog_stderr: z.string().nullable().optional(),
  emails: z.enum(['none', 'all', 'onfinish', 'onfailure']).optional(),
  mount: z.enum(['all', 'none']).optional(),
  memory: quantity.optional(),
  cpu: quantity.optional(),
};

const healthCheck = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('script'), script: z.string() }),
  z.strictObject({ type: z.literal('http'), path: z.string() }),
]);

/** The three body schemas, in the union's order (pydantic picks the first that fits). */
export const NEW_JOB_MEMBERS = [
  {
    name: 'NewOneOffJob',
    jobType: 'one-off',
    schema: z.strictObject({
      ...common,
      job_type: z.literal('one-off').optional(),
      retry: z.int().min(0).max(5).optional(),
      continuous: z.literal(false).optional(),
    }),
  },
  {
    name: 'NewScheduledJob',
    jobType: 'scheduled',
    schema: z.strictObject({
      ...common,
      schedule: z.string(),
      job_type: z.literal('scheduled').optional(),
      retry: z.int().min(0).max(5).optional(),
      timeout: z.int().min(0).nullable().optional(),
      continuous: z.literal(false).optional(),
    }),
  },
  {
    name: 'NewContinuousJob',
    jobType: 'continuous',
    schema: z.strictObject({
      ...common,
      job_type: z.literal('continuous').optional(),
      continuous: z.literal(true).optional(),
      replicas: z.int().min(0).optional(),
      port: z.int().min(1).max(65535).nullable().optional(),
      port_protocol: z.enum(['tcp', 'udp']).optional(),
      health_check: healthCheck.nullable().optional(),
      // `Annotated[str, StringConstraints(pattern=r"^/$")]` (J `tjf/api/models.py`, def0efb).
      publish: z.string().regex(/^\/$/).optional(),
    }),
  },
] as const;

const ENUM_WORDING: Record<string, string> = {
  'one-off': "<JobType.ONE_OFF: 'one-off'>",
  scheduled: "<JobType.SCHEDULED: 'scheduled'>",
  continuous: "<JobType.CONTINUOUS: 'continuous'>",
};

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key as string];
  }
  return value;
}

const orList = (values: readonly unknown[]) => {
  const quoted = values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v)));
  return quoted.length > 1
    ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`
    : (quoted[0] ?? '');
};

/** Translates zod issues into pydantic's error entries, with `loc` under `["body", member]`. */
function toPydantic(issues: readonly z.core.$ZodIssue[], member: string, body: unknown): FastApiError[] {
  const out: FastApiError[] = [];
  for (const issue of issues) {
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
    const loc = ['body', member, ...path];
    const input = valueAt(body, issue.path);
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys) {
          out.push({
            type: 'extra_forbidden',
            loc: [...loc, key],
            msg: 'Extra inputs are not permitted',
            input: valueAt(input, [key]),
          });
        }
        break;
      case 'invalid_type':
        if (input === undefined) {
          out.push({
            type: 'missing',
            loc,
            msg: 'Field required',
            input: valueAt(body, issue.path.slice(0, -1)),
          });
        } else if (issue.expected === 'string') {
          out.push({ type: 'string_type', loc, msg: 'Input should be a valid string', input });
        } else if (issue.expected === 'boolean') {
          out.push({ type: 'bool_type', loc, msg: 'Input should be a valid boolean', input });
        } else if (issue.expected === 'int' || issue.expected === 'number') {
          out.push({ type: 'int_type', loc, msg: 'Input should be a valid integer', input });
        } else {
          out.push({
            type: 'model_attributes_type',
            loc,
            msg: 'Input should be a valid dictionary or object to extract fields from',
            input,
          });
        }
        break;
      case 'too_small':
        out.push({
          type: 'greater_than_equal',
          loc,
          msg: `Input should be greater than or equal to ${issue.minimum}`,
          input,
          ctx: { ge: Number(issue.minimum) },
        });
        break;
      case 'too_big':
        out.push({
          type: 'less_than_equal',
          loc,
          msg: `Input should be less than or equal to ${issue.maximum}`,
          input,
          ctx: { le: Number(issue.maximum) },
        });
        break;
      case 'invalid_value': {
        const literal = issue.values.length === 1;
        const wording = literal
          ? (ENUM_WORDING[String(issue.values[0])] ?? orList(issue.values))
          : orList(issue.values);
        out.push({
          type: literal ? 'literal_error' : 'enum',
          loc,
          msg: `Input should be ${wording}`,
          input,
          ctx: { expected: wording },
        });
        break;
      }
      case 'invalid_union':
        out.push({
          type: 'union_tag_invalid',
          loc: loc.slice(0, -1),
          msg: `Input tag '${String(input)}' found using 'type' does not match any of the expected tags: 'script', 'http'`,
          input: valueAt(body, issue.path.slice(0, -1)),
        });
        break;
      case 'invalid_format':
        if (issue.format === 'regex') {
          // The one pattern of these bodies is `publish`'s, as pydantic prints it (zod escapes the "/").
          const pattern = '^/$';
          out.push({
            type: 'string_pattern_mismatch',
            loc,
            msg: `String should match pattern '${pattern}'`,
            input,
            ctx: { pattern },
          });
          break;
        }
        out.push({ type: 'value_error', loc, msg: `Value error, ${issue.message}`, input });
        break;
      default:
        out.push({ type: 'value_error', loc, msg: `Value error, ${issue.message}`, input });
    }
  }
  return out;
}

/** Outcome of matching a body against the union: the member it fits, or FastAPI's 422 errors. */
export type UnionMatch = { ok: true; spec: JobSpec } | { ok: false; detail: FastApiError[] };

/**
 * Matches a parsed JSON body against the union. The first member that fits wins, as in pydantic's
 * smart mode when several fit (a body with only the common fields is a one-off job).
 */
export function matchNewJob(body: unknown): UnionMatch {
  const detail: FastApiError[] = [];
  for (const member of NEW_JOB_MEMBERS) {
    const result = member.schema.safeParse(body);
    if (result.success) {
      // job_type is always "set" (the models' validators add it), `continuous` never reaches storage.
      const { continuous: _legacy, ...fields } = result.data as Record<string, unknown>;
      return { ok: true, spec: { ...fields, job_type: member.jobType } as unknown as JobSpec };
    }
    detail.push(...toPydantic(result.error.issues, member.name, body));
  }
  return { ok: false, detail };
}
