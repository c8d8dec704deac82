/**
 * Schemas shared by several APIs of the tool hosting platform: message lists, quotas, health.
 * Objects are non-strict (unknown fields are dropped, not refused), and lists the Go services may
 * send as `null` read as empty.
 */
import { z } from 'zod';

/** A list the service may omit or send as `null`; reads as `[]`. */
export function list<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((value): z.output<T>[] => value ?? []);
}

/** A scalar sent as string or number (or null); read as an optional string. */
export const looseString = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) => (value == null ? undefined : String(value)));

/** Lists of messages by priority. `warning` carries deprecation and beta notices. */
export const ResponseMessagesSchema = z.object({
  info: list(z.string()),
  warning: list(z.string()),
  error: list(z.string()),
});
/** Lists of messages by priority, as every API sends them. */
export type ResponseMessages = z.output<typeof ResponseMessagesSchema>;

/** The optional `messages` member of a response. */
export const messagesField = ResponseMessagesSchema.nullish();

/** `{data, messages}`: the envelope of the components and logs APIs. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data, messages: messagesField });
}

/** A name the specs mark optional (builds-openapi.yaml `QuotaCategory`/`QuotaCategoryItem`); absent reads as ''. */
const quotaName = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/** One quota line (`Storage`, `Running jobs`…); values are strings as the services send them. */
export const QuotaItemSchema = z.object({
  name: quotaName,
  limit: looseString,
  used: looseString,
  available: looseString,
  capacity: looseString,
});
/** One quota line. */
export type QuotaItem = z.output<typeof QuotaItemSchema>;

/** A group of quota lines (`Registry`, `Per-job limits`…). */
export const QuotaCategorySchema = z.object({
  name: quotaName,
  items: list(QuotaItemSchema),
});
/** A group of quota lines. */
export type QuotaCategory = z.output<typeof QuotaCategorySchema>;

/** The builds and jobs quota: categories of items. */
export const QuotaSchema = z.object({ categories: list(QuotaCategorySchema) });
/** The builds and jobs quota. */
export type Quota = z.output<typeof QuotaSchema>;

/** Health of an API (each API words it differently; the client normalises to this). */
export interface ServiceHealth {
  status: 'OK' | 'ERROR';
  /** The service's explanation, when it gave one. */
  message?: string;
}

/** `OK` / `ERROR`. */
export const HealthStatusSchema = z.enum(['OK', 'ERROR']);
