/**
 * The building blocks of the configuration schema, shared by `src/config.ts` and the platform
 * descriptors that declare their own variables (`adapters/<platform>/env.ts`).
 */
import { z } from 'zod';

/** One environment variable: its schema, default and what it is for (docs/configuration.md lists them all). */
export interface EnvVar<T extends z.ZodType = z.ZodType> {
  schema: T;
  description: string;
  /** Shown in docs/configuration.md when the default is computed rather than a literal. */
  defaultText?: string;
}

/** A set of environment variables, by name. */
export type EnvFragment = Record<string, EnvVar>;

/** A yes/no variable (`1`, `true`, `yes` or their opposites). */
export const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/** An optional absolute URL. */
export const optionalUrl = z
  .url({ message: 'must be an absolute URL such as https://example.org' })
  .optional();

/** A comma- or space-separated list whose entries each match `item`. */
export const listOf = (item: RegExp, example: string) =>
  z
    .string()
    .default('')
    .transform((s) => s.split(/[\s,]+/).filter(Boolean))
    .pipe(z.array(z.string().regex(item, `each entry must look like ${example}`)));

/** The Server Admin Log's variables (docs/server-admin-log.md). */
export const SAL_ENV = {
  SAL_CHANNEL: {
    schema: z
      .string()
      .regex(/^#[^\s,\x00-\x1f]{1,49}$/, 'must be a channel name such as #wikimedia-cloud-feed')
      .default('#wikimedia-cloud-feed'),
    description:
      'Channel where each change to a tool whose SAL is on is said as `!log tools.<tool> …`, for stashbot to write to the Server Admin Log.',
  },
  SAL_DEFAULT: {
    schema: z.enum(['on', 'off']).default('off'),
    description: 'Whether a tool without its own `/tool sal <tool> on|off` setting has its changes logged.',
  },
} satisfies EnvFragment;
