/** Schemas of the source import API (`/repos/{owner}/{repo}/import…`; closed on the real service). */
import { z } from 'zod';

/** Every import status, as the spec lists them. */
export const IMPORT_STATUSES = [
  'auth',
  'error',
  'none',
  'detecting',
  'choose',
  'auth_failed',
  'importing',
  'mapping',
  'waiting_to_push',
  'pushing',
  'complete',
  'setup',
  'unknown',
  'detection_found_multiple',
  'detection_found_nothing',
  'detection_needs_auth',
] as const;

/** An import (`import`). `use_lfs` is a string in prose and a boolean in the schema: both are read. */
export const ImportSchema = z.looseObject({
  vcs: z.string().nullable(),
  use_lfs: z.union([z.boolean(), z.string()]).optional(),
  vcs_url: z.string(),
  svc_root: z.string().optional(),
  svn_root: z.string().optional(),
  tfvc_project: z.string().optional(),
  status: z.string(),
  status_text: z.string().nullish(),
  failed_step: z.string().nullish(),
  error_message: z.string().nullish(),
  import_percent: z.number().nullish(),
  commit_count: z.number().nullish(),
  push_percent: z.number().nullish(),
  has_large_files: z.boolean().optional(),
  large_files_size: z.number().optional(),
  large_files_count: z.number().optional(),
  project_choices: z
    .array(
      z.looseObject({
        vcs: z.string().optional(),
        tfvc_project: z.string().optional(),
        human_name: z.string().optional(),
      }),
    )
    .optional(),
  message: z.string().optional(),
  authors_count: z.number().nullish(),
  url: z.string(),
  html_url: z.string(),
  authors_url: z.string(),
  repository_url: z.string(),
});
/** An import. */
export type Import = z.output<typeof ImportSchema>;

/** A commit author of an import (`porter-author`). */
export const ImportAuthorSchema = z.looseObject({
  id: z.number(),
  remote_id: z.string(),
  remote_name: z.string(),
  email: z.string(),
  name: z.string(),
  url: z.string(),
  import_url: z.string(),
});
/** A commit author of an import. */
export type ImportAuthor = z.output<typeof ImportAuthorSchema>;

/** A file over 100 MB found by an import (`porter-large-file`). */
export const LargeFileSchema = z.looseObject({
  ref_name: z.string(),
  path: z.string(),
  oid: z.string(),
  size: z.number(),
});
/** A file over 100 MB found by an import. */
export type LargeFile = z.output<typeof LargeFileSchema>;

/** The `repository_import` webhook payload (the fields Deckhand reads). */
export const RepositoryImportEventSchema = z.looseObject({
  status: z.enum(['success', 'cancelled', 'failure']),
  repository: z.looseObject({ full_name: z.string(), html_url: z.string().optional() }),
  sender: z.looseObject({ login: z.string() }),
});
/** The `repository_import` webhook payload. */
export type RepositoryImportEvent = z.output<typeof RepositoryImportEventSchema>;
