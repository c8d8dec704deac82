/** Schemas of the migrations (export archives) API. */
import { z } from 'zod';
import { RepositorySchema, SimpleUserSchema } from './schemas';

/** Documented migration states; others are kept as they come (the schema has no enum). */
export const MIGRATION_STATES = ['pending', 'exporting', 'exported', 'failed'] as const;

/** States after which a migration does not change any more. */
export const FINISHED_MIGRATION_STATES: ReadonlySet<string> = new Set(['exported', 'failed']);

/** A migration (`migration`). */
export const MigrationSchema = z.looseObject({
  id: z.number(),
  node_id: z.string().optional(),
  owner: SimpleUserSchema.nullish(),
  guid: z.string(),
  state: z.string(),
  lock_repositories: z.boolean().optional(),
  exclude_attachments: z.boolean().optional(),
  exclude_metadata: z.boolean().optional(),
  exclude_git_data: z.boolean().optional(),
  exclude_releases: z.boolean().optional(),
  exclude_owner_projects: z.boolean().optional(),
  org_metadata_only: z.boolean().optional(),
  repositories: z.array(RepositorySchema).default([]),
  url: z.string(),
  archive_url: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  exclude: z.array(z.string()).optional(),
});
/** A migration. */
export type Migration = z.output<typeof MigrationSchema>;

/** Whose migrations: an organization's, or the authenticated user's (`@me`). */
export type MigrationOwner = { kind: 'org'; org: string } | { kind: 'user' };

/** What a migration is started with. */
export interface StartMigrationInput {
  /** Repository names (organization) or `owner/name` (user). */
  repositories: string[];
  lockRepositories?: boolean;
  excludeAttachments?: boolean;
  /** Attributes to leave out (`repositories`). */
  exclude?: string[];
}
