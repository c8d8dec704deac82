/**
 * Schemas of the components API (`/components/v1`, OpenAPI 0.6.0). Every answer is the envelope
 * `{data, messages}`, whose `messages.warning` carries the beta notice. Tool configurations keep
 * fields this client does not know, so a configuration read and written back loses nothing.
 */
import { z } from 'zod';
import { envelope, HealthStatusSchema } from './common-schemas';

/** A string the service may send as null; reads as `fallback` then. */
const text = (fallback: string) =>
  z
    .string()
    .nullish()
    .transform((value) => value ?? fallback);

/** Job email setting. */
export const EmailOptionSchema = z.enum(['none', 'all', 'onfinish', 'onfailure']);

/** Build a component from a git repository. */
export const SourceBuildInfoSchema = z.looseObject({
  repository: z.string(),
  ref: z.string(),
  use_latest_versions: z.boolean().optional(),
  use_deprecated_versions: z.boolean().optional(),
});

/** Reuse the image of another component. */
export const SourceBuildReferenceSchema = z.looseObject({ reuse_from: z.string() });

/** Run fields common to both component types. */
const commonRun = {
  /** Command; `launcher` is prepended to load the environment if needed. */
  command: z.string(),
  cpu: z.string().optional(),
  memory: z.string().optional(),
  emails: EmailOptionSchema.optional(),
  filelog: z.boolean().optional(),
  filelog_stdout: z.string().optional(),
  filelog_stderr: z.string().optional(),
  mount: z.enum(['all', 'none']).optional(),
};

/** How a continuous component runs. */
export const ContinuousRunInfoSchema = z.looseObject({
  ...commonRun,
  port: z.number().int().optional(),
  port_protocol: z.enum(['tcp', 'udp']).optional(),
  /** Only `/`: expose at https://<tool>.toolforge.org/ (needs a tcp port). */
  publish: z.string().optional(),
  replicas: z.number().int().optional(),
  health_check_script: z.string().optional(),
  health_check_http: z.string().optional(),
});

/** How a scheduled component runs. */
export const ScheduledRunInfoSchema = z.looseObject({
  ...commonRun,
  schedule: z.string(),
  retry: z.number().int().optional(),
  timeout: z.number().int().optional(),
});

const buildInfo = z.union([SourceBuildInfoSchema, SourceBuildReferenceSchema]);

/**
 * `component_type` as the spec declares it on both component shapes: either value, on either
 * shape. The real service validates a component as `ContinuousComponentInfo | ScheduledComponentInfo`
 * (pydantic, no discriminator: C components/models/api_models.py @ dac7467) and stores
 * `component_type` as given; what is deployed follows the class the `run` matched
 * (C components/deploy_task.py `match component_info`). So `component_type: scheduled` with a
 * `run` without `schedule` is a valid (continuous-shaped) component.
 */
const ComponentTypeSchema = z.enum(['continuous', 'scheduled']).optional();

/** A component whose `run` is continuous-shaped (no `schedule`). */
export const ContinuousComponentSchema = z.looseObject({
  component_type: ComponentTypeSchema,
  build: buildInfo,
  run: ContinuousRunInfoSchema,
});

/** A component whose `run` has a `schedule`. */
export const ScheduledComponentSchema = z.looseObject({
  component_type: ComponentTypeSchema,
  build: buildInfo,
  run: ScheduledRunInfoSchema,
});

/** One component of a tool configuration: the `run` shape decides, as in the service. */
export const ComponentSchema = z.union([ScheduledComponentSchema, ContinuousComponentSchema]);
/** One component of a tool configuration. */
export type Component = z.output<typeof ComponentSchema>;

/** A tool's component configuration (`toolforge.yaml`). */
export const ToolConfigSchema = z.looseObject({
  config_version: z.string().nullish(),
  /** When set, the configuration is fetched from this URL on every deploy. */
  source_url: z.string().optional(),
  components: z.record(z.string(), ComponentSchema),
});
/** A tool's component configuration. */
export type ToolConfig = z.output<typeof ToolConfigSchema>;

/** State of a deployment. */
export const DeploymentStatusSchema = z.enum([
  'pending',
  'running',
  'failed',
  'timed_out',
  'successful',
  'cancelling',
  'cancelled',
]);
/** State of a deployment. */
export type DeploymentStatus = z.output<typeof DeploymentStatusSchema>;

/** Deployment states after which nothing changes any more. */
export const FINISHED_DEPLOYMENT_STATUSES: ReadonlySet<DeploymentStatus> = new Set([
  'failed',
  'timed_out',
  'successful',
  'cancelled',
]);

/** State of one component's build within a deployment. */
export const DeploymentBuildStatusSchema = z.enum([
  'pending',
  'running',
  'failed',
  'successful',
  'unknown',
  'skipped',
  'cancelled',
]);
/** State of one component's build within a deployment. */
export type DeploymentBuildStatus = z.output<typeof DeploymentBuildStatusSchema>;

/** State of one component's run within a deployment. */
export const DeploymentRunStatusSchema = z.enum(['pending', 'failed', 'successful', 'skipped', 'unknown']);
/** State of one component's run within a deployment. */
export type DeploymentRunStatus = z.output<typeof DeploymentRunStatusSchema>;

/** One component's build in a deployment. */
export const DeploymentBuildInfoSchema = z.object({
  /** A build id, `no-id-yet` or `no-build-needed`. */
  build_id: z.string(),
  build_status: DeploymentBuildStatusSchema,
  build_image: text('no-image-yet'),
  build_long_status: text(''),
});
/** One component's build in a deployment. */
export type DeploymentBuildInfo = z.output<typeof DeploymentBuildInfoSchema>;

/** One component's run in a deployment. */
export const DeploymentRunInfoSchema = z.object({
  run_status: DeploymentRunStatusSchema,
  run_long_status: text(''),
});
/** One component's run in a deployment. */
export type DeploymentRunInfo = z.output<typeof DeploymentRunInfoSchema>;

/** A deployment of a tool's components. */
export const DeploymentSchema = z.object({
  /** `YYYYmmdd-HHMMSS-<10 random chars>`. */
  deploy_id: z.string(),
  /** `YYYYmmdd-HHMMSS`, UTC. */
  creation_time: z.string(),
  description: text(''),
  builds: z.record(z.string(), DeploymentBuildInfoSchema),
  runs: z.record(z.string(), DeploymentRunInfoSchema),
  /** The configuration deployed (not relied upon; null when unreadable). */
  tool_config: ToolConfigSchema.nullish().catch(null),
  status: DeploymentStatusSchema.nullish().transform((value) => value ?? 'pending'),
  long_status: text(''),
  force_build: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
  force_run: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
});
/** A deployment of a tool's components. */
export type Deployment = z.output<typeof DeploymentSchema>;

/** Input of {@link ComponentsApi.createDeployment}. */
export interface CreateDeploymentInput {
  /** Rebuild even when a build of the same commit exists. */
  forceBuild?: boolean;
  /** Re-run components whose run parameters did not change. */
  forceRun?: boolean;
  /** What is deployed and why. */
  description?: string;
}

/** A tool's deploy token (a UUID, valid 365 days). */
export const DeployTokenSchema = z.object({
  token: z.string(),
  creation_date: z.string().optional(),
});
/** A tool's deploy token. */
export type DeployToken = z.output<typeof DeployTokenSchema>;

/** `{data: ToolConfig}`. */
export const ToolConfigResponseSchema = envelope(ToolConfigSchema);
/** `{data: Deployment}`. */
export const DeploymentResponseSchema = envelope(DeploymentSchema);
/** `{data: {deployments}}` (empty when there are none). */
export const DeploymentListResponseSchema = envelope(
  z.object({
    deployments: z
      .array(DeploymentSchema)
      .nullish()
      .transform((v) => v ?? []),
  }),
);
/** `{data: DeployToken}`. */
export const DeployTokenResponseSchema = envelope(DeployTokenSchema);
/** `GET /healthz`, normalised. */
export const ComponentsHealthSchema = envelope(z.object({ status: HealthStatusSchema })).transform(
  (body) => ({
    status: body.data.status,
    ...(body.messages?.error.length ? { message: body.messages.error.join('\n') } : {}),
  }),
);
