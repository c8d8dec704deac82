/**
 * The components `ToolConfig` (components-openapi.yaml / components-tool-config-schema.json) as zod
 * schemas, and its validation with FastAPI/pydantic-style messages: each problem becomes
 * "Validation error at a -> b: msg. Received value: 'x'" (C `api/exceptions.py`), and fields the
 * model does not know are dropped with a warning "Unknown field a.b, skipped" (C `tool_router.py`).
 */
import { z } from 'zod';

const emails = z.enum(['none', 'all', 'onfinish', 'onfailure']);
const mount = z.enum(['all', 'none']);

/** `SourceBuildInfo`. */
export const sourceBuildInfo = z.object({
  repository: z.string().min(1).url(),
  ref: z.string(),
  use_latest_versions: z.boolean().optional(),
  use_deprecated_versions: z.boolean().optional(),
});

/** `SourceBuildReference`. */
export const sourceBuildReference = z.object({ reuse_from: z.string() });

const commonRun = {
  command: z.string(),
  cpu: z.string().optional(),
  memory: z.string().optional(),
  emails: emails.optional(),
  filelog: z.boolean().optional(),
  filelog_stderr: z.string().optional(),
  filelog_stdout: z.string().optional(),
  mount: mount.optional(),
};

/** `ContinuousRunInfo`. */
export const continuousRunInfo = z
  .object({
    ...commonRun,
    port: z.number().int().optional(),
    port_protocol: z.enum(['tcp', 'udp']).optional(),
    publish: z.string().regex(/^\/$/).optional(),
    replicas: z.number().int().min(1).optional(),
    health_check_script: z.string().optional(),
    health_check_http: z.string().optional(),
  })
  .superRefine((run, check) => {
    if (run.health_check_http !== undefined && run.port === undefined) {
      check.addIssue({ code: 'custom', message: 'Value error, health_check_http requires a port' });
    }
    if (run.health_check_http !== undefined && run.health_check_script !== undefined) {
      check.addIssue({
        code: 'custom',
        message: 'Value error, only one of health_check_script and health_check_http can be set',
      });
    }
    if (run.publish !== undefined && (run.port === undefined || (run.port_protocol ?? 'tcp') !== 'tcp')) {
      check.addIssue({ code: 'custom', message: 'Value error, publish requires a tcp port' });
    }
  });

/** `ScheduledRunInfo`. */
export const scheduledRunInfo = z.object({
  ...commonRun,
  schedule: z.string(),
  retry: z.number().int().min(0).max(5).optional(),
  timeout: z.number().int().min(0).optional(),
});

/** `SourceBuildInfo` or `SourceBuildReference`. */
export type ComponentBuild = z.infer<typeof sourceBuildInfo> | z.infer<typeof sourceBuildReference>;

/** A `ScheduledRunInfo`. */
export type ScheduledRun = z.infer<typeof scheduledRunInfo>;
/** A `ContinuousRunInfo`. */
export type ContinuousRun = z.infer<typeof continuousRunInfo>;

/**
 * `ContinuousComponentInfo` | `ScheduledComponentInfo`. `component_type` is stored as given (either
 * value on either shape, as the spec and C components/models/api_models.py @ dac7467 allow); the
 * `run` shape is what decides how it is deployed (C components/deploy_task.py `match component_info`).
 */
export interface ComponentInfo {
  component_type: 'continuous' | 'scheduled';
  build: ComponentBuild;
  run: ContinuousRun | ScheduledRun;
}

/** True for a scheduled-shaped run (one with a `schedule`). */
export function isScheduledRun(run: ContinuousRun | ScheduledRun): run is ScheduledRun {
  return 'schedule' in run && typeof run.schedule === 'string';
}

/** `ToolConfig`. */
export interface ToolConfig {
  config_version?: 'v1beta1' | null;
  source_url?: string;
  components: Record<string, ComponentInfo>;
}

/** Whether a component builds from source (rather than reusing another component's build). */
export function isSourceBuild(build: ComponentBuild): build is z.infer<typeof sourceBuildInfo> {
  return 'repository' in build;
}

/** Outcome of {@link validateToolConfig}. */
export type ToolConfigValidation =
  | { ok: true; config: ToolConfig; unknownFields: string[] }
  | { ok: false; errors: string[] };

type Issue = z.core.$ZodIssue;

function typeName(expected: string): string {
  switch (expected) {
    case 'string':
      return 'Input should be a valid string';
    case 'boolean':
      return 'Input should be a valid boolean';
    case 'number':
    case 'int':
      return 'Input should be a valid integer';
    case 'object':
      return 'Input should be a valid dictionary or object to extract fields from';
    default:
      return `Input should be a valid ${expected}`;
  }
}

function orList(values: readonly unknown[]): string {
  const quoted = values.map((value) => `'${String(value)}'`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/** A pydantic-like message for one zod issue; `missing` when the field is absent. */
function pydanticMessage(issue: Issue, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return input === undefined ? 'Field required' : typeName(issue.expected);
    case 'invalid_value':
      return `Input should be ${orList(issue.values)}`;
    case 'too_small':
      return issue.origin === 'string'
        ? `String should have at least ${issue.minimum} character${Number(issue.minimum) === 1 ? '' : 's'}`
        : issue.origin === 'object'
          ? `Dictionary should have at least ${issue.minimum} item after validation`
          : `Input should be greater than or equal to ${issue.minimum}`;
    case 'too_big':
      return `Input should be less than or equal to ${issue.maximum}`;
    case 'invalid_format':
      return issue.format === 'regex'
        ? `String should match pattern '${(issue as { pattern?: string }).pattern ?? ''}'`
        : 'Input should be a valid URL, relative URL without a base';
    default:
      return issue.message;
  }
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

function formatIssues(issues: Issue[], root: unknown, prefix: string[]): string[] {
  return issues.map((issue) => {
    const path = [...prefix, ...issue.path.map(String)];
    const input = valueAt(root, path);
    const message = pydanticMessage(issue, input);
    // pydantic's `input` of a missing field is the enclosing object.
    const received = input === undefined ? valueAt(root, path.slice(0, -1)) : input;
    return (
      `Validation error at ${path.join(' -> ')}: ${message}` +
      (received === undefined || received === null ? '' : `. Received value: '${show(received)}'`)
    );
  });
}

function unknownFields(input: unknown, parsed: unknown, prefix: string): string[] {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    const known = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>)[key] : undefined;
    if (known === undefined && !(parsed && typeof parsed === 'object' && key in parsed)) {
      out.push(`${prefix}${key}`);
    } else {
      out.push(...unknownFields(value, known, `${prefix}${key}.`));
    }
  }
  return out;
}

/** Validates a `ToolConfig` body (already parsed from JSON). */
export function validateToolConfig(input: unknown): ToolConfigValidation {
  const errors: string[] = [];
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    const received = input === null || input === undefined ? '' : `. Received value: '${show(input)}'`;
    return { ok: false, errors: [`Validation error at : ${typeName('object')}${received}`] };
  }
  const top = z
    .object({
      config_version: z.literal('v1beta1').nullable().optional(),
      source_url: z.string().min(1).url().optional(),
      components: z.record(z.string(), z.unknown()).refine((value) => Object.keys(value).length >= 1, {
        message: 'Dictionary should have at least 1 item after validation',
      }),
    })
    .safeParse(input);
  if (!top.success) return { ok: false, errors: formatIssues(top.error.issues, input, []) };
  const config: ToolConfig = { components: {} };
  if (top.data.config_version !== undefined) config.config_version = top.data.config_version;
  if (top.data.source_url !== undefined) config.source_url = top.data.source_url;
  for (const [name, raw] of Object.entries(top.data.components)) {
    const base = ['components', name];
    const component = z
      .object({
        component_type: z.enum(['continuous', 'scheduled']).optional(),
        build: z.unknown(),
        run: z.unknown(),
      })
      .safeParse(raw);
    if (!component.success) {
      errors.push(...formatIssues(component.error.issues, input, base));
      continue;
    }
    const type = component.data.component_type ?? 'continuous';
    const buildRaw = component.data.build;
    const buildSchema =
      buildRaw && typeof buildRaw === 'object' && 'reuse_from' in buildRaw
        ? sourceBuildReference
        : sourceBuildInfo;
    const build = buildSchema.safeParse(buildRaw);
    if (!build.success) errors.push(...formatIssues(build.error.issues, input, [...base, 'build']));
    // pydantic tries both shapes (no discriminator): a run without `schedule` is continuous-shaped
    // even under `component_type: scheduled` (C components/models/api_models.py @ dac7467).
    const runRaw = component.data.run;
    const hasSchedule = !!runRaw && typeof runRaw === 'object' && 'schedule' in runRaw;
    const runSchema = type === 'scheduled' && hasSchedule ? scheduledRunInfo : continuousRunInfo;
    const run = runSchema.safeParse(component.data.run);
    if (!run.success) errors.push(...formatIssues(run.error.issues, input, [...base, 'run']));
    if (build.success && run.success) {
      config.components[name] = { component_type: type, build: build.data, run: run.data } as ComponentInfo;
    }
  }
  for (const [name, component] of Object.entries(config.components)) {
    if (!isSourceBuild(component.build)) {
      const target = config.components[component.build.reuse_from];
      if (!target || !isSourceBuild(target.build)) {
        errors.push(
          `Validation error at components -> ${name} -> build -> reuse_from: Value error, component ` +
            `'${component.build.reuse_from}' does not exist or does not build from source. ` +
            `Received value: '${component.build.reuse_from}'`,
        );
      }
    }
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, config, unknownFields: unknownFields(input, config, '') };
}
