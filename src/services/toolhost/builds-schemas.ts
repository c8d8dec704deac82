/** Schemas of the builds API (`/builds/v1`), from its OpenAPI 2.4.0. */
import { z } from 'zod';
import { HealthStatusSchema, list, messagesField, QuotaSchema } from './common-schemas';

/** A string the Go service may leave empty or null; reads as undefined then. */
const optionalText = z
  .string()
  .nullish()
  .transform((value) => (value ? value : undefined));

/** Status of a build. `BUILD_UNKNOWN` covers anything the service cannot classify. */
export const BuildStatusSchema = z.enum([
  'BUILD_PENDING',
  'BUILD_RUNNING',
  'BUILD_SUCCESS',
  'BUILD_FAILURE',
  'BUILD_CANCELLED',
  'BUILD_TIMEOUT',
  'BUILD_UNKNOWN',
]);
/** Status of a build. */
export type BuildStatus = z.output<typeof BuildStatusSchema>;

/** Build statuses after which nothing changes any more. */
export const FINISHED_BUILD_STATUSES: ReadonlySet<BuildStatus> = new Set([
  'BUILD_SUCCESS',
  'BUILD_FAILURE',
  'BUILD_CANCELLED',
  'BUILD_TIMEOUT',
]);

/** What a build is started with (request body of build start, echoed in answers). */
export const BuildParametersSchema = z.object({
  /** URL of the public git repository to build. */
  source_url: z.string(),
  /** Branch, tag or commit; default the repository's HEAD. */
  ref: optionalText,
  /** Image name; default `tool-<tool>`. */
  image_name: optionalText,
  /** Build-time environment variables (names `^[A-Za-z_][A-Za-z_0-9]{2,}$`). */
  envvars: z.record(z.string(), z.string()).nullish(),
  use_latest_versions: z.boolean().nullish(),
  use_deprecated_versions: z.boolean().nullish(),
});
/** Parameters of a build as the service reports them. */
export type BuildParameters = z.output<typeof BuildParametersSchema>;

/** Input of {@link BuildsApi.start}, as the API names it; only the fields that are set are sent. */
export interface StartBuildInput {
  /** URL of the public git repository to build. */
  source_url: string;
  /** Branch, tag or commit; default HEAD. */
  ref?: string;
  /** Image name; default `tool-<tool>`. */
  image_name?: string;
  /** Build-time environment variables. */
  envvars?: Record<string, string>;
  /** Use the latest builder and runner images. */
  use_latest_versions?: boolean;
  /** Use deprecated images (ignored with `use_latest_versions`). */
  use_deprecated_versions?: boolean;
}

/** A build of a container image. */
export const BuildSchema = z.object({
  /** `<tool>-buildpacks-pipelinerun-<random>`. */
  build_id: z.string(),
  /**
   * Optional in the spec (`BuildCondition.status`, Go `*BuildStatus` with omitempty, B
   * gen/models.go); absent reads as `BUILD_UNKNOWN`.
   */
  status: BuildStatusSchema.nullish().transform((value) => value ?? 'BUILD_UNKNOWN'),
  /** The service's explanation of the status. */
  message: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  /** RFC 3339; undefined while not started. */
  start_time: optionalText,
  /** RFC 3339; undefined while not finished. */
  end_time: optionalText,
  parameters: BuildParametersSchema.nullish(),
  /** Harbor image, possibly digest-pinned (`…@sha256:…`). */
  destination_image: optionalText,
  /** The commit SHA the ref resolved to. */
  resolved_ref: optionalText,
});
/** A build of a container image. */
export type Build = z.output<typeof BuildSchema>;

/** What starting a build returns. */
export const NewBuildSchema = z.object({
  /** The build id. */
  name: z.string(),
  resolved_ref: optionalText,
  parameters: BuildParametersSchema.nullish(),
});
/** A just-started build. */
export type NewBuild = z.output<typeof NewBuildSchema>;

/** One line of build log, `[<container>] text`. */
export const BuildLogSchema = z.object({
  /** Optional in the spec (B gen/models.go `Line *string`); the service always sets it. */
  line: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
});
/** One line of build log. */
export type BuildLog = z.output<typeof BuildLogSchema>;

/** `GET /builds`. */
export const BuildListResponseSchema = z.object({ builds: list(BuildSchema), messages: messagesField });
/** `GET /builds/{id}`, `/builds/latest`. */
export const BuildResponseSchema = z.object({ build: BuildSchema, messages: messagesField });
/** `POST /builds`. */
export const StartResponseSchema = z.object({ new_build: NewBuildSchema, messages: messagesField });
/** `DELETE /builds/{id}`, `PUT /builds/{id}/cancel`. */
export const BuildIdResponseSchema = z.object({ id: z.string().nullish(), messages: messagesField });
/** `POST /clean`. */
export const CleanResponseSchema = z.object({ messages: messagesField });
/** `GET /quotas`. */
export const BuildQuotaResponseSchema = z.object({
  /** Optional in the spec; absent reads as no categories. */
  quota: QuotaSchema.nullish().transform((value) => value ?? { categories: [] }),
  messages: messagesField,
});

/** `GET /healthz`, normalised. */
export const BuildsHealthSchema = z
  .object({ status: HealthStatusSchema, messages: messagesField })
  .transform((body) => ({
    status: body.status,
    ...(body.messages?.error.length ? { message: body.messages.error.join('\n') } : {}),
  }));

/** Splits a build log line `[step-build] text` into its container and text. */
export function splitBuildLogLine(line: string): { container?: string; text: string } {
  const match = /^\[([^\]]+)\] ?(.*)$/s.exec(line);
  return match ? { container: match[1] as string, text: match[2] as string } : { text: line };
}
