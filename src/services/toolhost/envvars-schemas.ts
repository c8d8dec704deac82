/** Schemas of the envvars API (`/envvars/v1`; see specs/toolforge/envvars-schemas.md). */
import { z } from 'zod';
import { HealthStatusSchema, list, messagesField } from './common-schemas';

/** Names the API accepts: uppercase letters, digits and `_`, at least 4 characters, starting with a letter. */
export const ENVVAR_NAME = /^[A-Z][A-Z_0-9]{2,}[A-Z0-9]$/;

/** An environment variable exposed to the tool's jobs. Values are secrets: never log them. */
export const EnvvarSchema = z.object({ name: z.string(), value: z.string() });
/** An environment variable of a tool. */
export type Envvar = z.output<typeof EnvvarSchema>;

/** The tool's envvar quota. */
export const EnvvarsQuotaSchema = z
  .object({ quota: z.number().nullish(), used: z.number().nullish() })
  .transform(({ quota, used }) => ({
    quota: quota ?? undefined,
    used: used ?? undefined,
    available: quota != null && used != null ? quota - used : undefined,
  }));
/** The tool's envvar quota: how many it may have, has, and may still create. */
export type EnvvarsQuota = z.output<typeof EnvvarsQuotaSchema>;

/** `GET /envvars`. */
export const EnvvarListResponseSchema = z.object({ envvars: list(EnvvarSchema), messages: messagesField });
/** `POST /envvars`, `GET|DELETE /envvars/{name}`. */
export const EnvvarResponseSchema = z.object({ envvar: EnvvarSchema, messages: messagesField });
/** `GET /quotas`. */
export const EnvvarsQuotaResponseSchema = z.object({
  /** Optional in the summarised `QuotaResponse` (envvars-schemas.md); absent reads as unknown numbers. */
  quota: EnvvarsQuotaSchema.nullish().transform(
    (value) => value ?? { quota: undefined, used: undefined, available: undefined },
  ),
  messages: messagesField,
});
/** `GET /healthz`, normalised. */
export const EnvvarsHealthSchema = z
  .object({ status: HealthStatusSchema, messages: messagesField })
  .transform((body) => ({
    status: body.status,
    ...(body.messages?.error.length ? { message: body.messages.error.join('\n') } : {}),
  }));
