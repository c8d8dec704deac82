/** Schemas of the legacy OAuth authorizations and grants API (Basic authentication only). */
import { z } from 'zod';

const AppSchema = z.looseObject({ client_id: z.string(), name: z.string(), url: z.string() });

/** An application's grant to a user (`application-grant`). */
export const GrantSchema = z.looseObject({
  id: z.number(),
  url: z.string(),
  app: AppSchema,
  created_at: z.string(),
  updated_at: z.string(),
  scopes: z.array(z.string()),
});
/** An application's grant to a user. */
export type Grant = z.output<typeof GrantSchema>;

/** A token of an application (`authorization`); `token` is only filled in when it was created. */
export const AuthorizationSchema = z.looseObject({
  id: z.number(),
  url: z.string(),
  scopes: z.array(z.string()).nullable(),
  token: z.string(),
  token_last_eight: z.string().nullable(),
  hashed_token: z.string().nullable(),
  app: AppSchema,
  note: z.string().nullable(),
  note_url: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  fingerprint: z.string().nullable(),
});
/** A token of an application. */
export type Authorization = z.output<typeof AuthorizationSchema>;

/** Body of a create or get-or-create. */
export interface AuthorizationInput {
  scopes?: string[] | null;
  note?: string;
  note_url?: string;
  client_id?: string;
  client_secret?: string;
  fingerprint?: string;
}

/** Body of an update: only one of `scopes`, `add_scopes`, `remove_scopes`. */
export interface AuthorizationUpdate {
  scopes?: string[] | null;
  add_scopes?: string[];
  remove_scopes?: string[];
  note?: string;
  note_url?: string;
  fingerprint?: string;
}
