/**
 * `/source import status|authors|map-author|large-files|lfs|cancel|follow|unfollow <owner/repo>`:
 * source imports with the user's linked account. `follow` announces the `repository_import` webhook
 * (an import finished, failed or was cancelled) in this conversation.
 */
import { z } from 'zod';
import { commandRef } from '../../src/core/action-ref';
import { UsageError } from '../../src/core/errors';
import { SCOPES } from '../../src/services/sourcehost';
import { table } from '../format';
import { command } from './context';
import { importCard } from './source-cards';
import { linkedCommand, sourceAccess } from './source-link';
import { orMissing } from './source-missing';

const repo = z
  .string()
  .regex(/^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/, 'must be owner/name, e.g. mona/legacy-svn')
  .describe('opt-repo-source-import-status');

function split(full: string): [string, string] {
  return full.split('/') as [string, string];
}

/** The source host's 404 for an import call, in Deckhand's words. */
function noImport<T>(repoName: string, work: () => Promise<T>): Promise<T> {
  return orMissing(
    work,
    `There is no source import into ${repoName} (none was started, it was cancelled, or your account cannot see the repository).`,
    'Imports are started on the source host; /source import status shows one once it runs.',
  );
}

/** Statuses after which an import does nothing more (the `repository_import` webhook has fired). */
const ENDED: Record<string, string> = { complete: 'it finished', error: 'it failed' };

/** `/source import status <owner/repo>`. */
export const importStatusCommand = linkedCommand({
  name: 'source import status',
  args: z.object({ repo }),
  positional: ['repo'],
  examples: ['/source import status mona/legacy-svn'],
  permission: 'read',
  scopes: () => SCOPES.imports,
  async run({ args, client }) {
    return importCard(
      args.repo,
      await noImport(args.repo, () => client.imports(...split(args.repo)).status()),
    );
  },
});

/** `/source import authors <owner/repo> [--since ID]`. */
export const importAuthorsCommand = linkedCommand({
  name: 'source import authors',
  args: z.object({
    repo,
    since: z.number().int().min(0).optional().describe('opt-since-source-import-authors'),
  }),
  positional: ['repo'],
  examples: ['/source import authors mona/legacy-svn'],
  permission: 'read',
  scopes: () => SCOPES.imports,
  async run({ args, client }) {
    const authors = await noImport(args.repo, () => client.imports(...split(args.repo)).authors(args.since));
    if (authors.length === 0)
      return { text: `No commit authors found in the import of ${args.repo} (yet).`, status: 'info' };
    const rows = authors.map((a) => [String(a.id), a.remote_name, a.name, a.email]);
    return {
      title: `Commit authors of the import into ${args.repo}`,
      code: { text: table([['ID', 'REMOTE', 'NAME', 'EMAIL'], ...rows]) },
      status: 'info',
      footer: `Map one with /source import map-author ${args.repo} <ID> --email E --name N`,
    };
  },
});

/** `/source import map-author <owner/repo> <author_id> [--email E] [--name N]`. */
export const importMapAuthorCommand = command({
  name: 'source import map-author',
  args: z.object({
    repo,
    authorId: z.number().int().positive().describe('opt-author-id'),
    email: z
      .email({ message: 'must be an e-mail address' })
      .optional()
      .describe('opt-email-source-import-map-author'),
    name: z.string().min(1).max(200).optional().describe('opt-name-source-import-map-author'),
  }),
  positional: ['repo', 'authorId'],
  examples: ['/source import map-author mona/legacy-svn 2268557 --email hubot@example.org --name Hubot'],
  permission: 'read',
  sideEffect: true,
  async run({ args, services, invocation }) {
    if (args.email === undefined && args.name === undefined) {
      throw new UsageError('Give --email, --name or both.', {
        usage: '/source import map-author <repo> <author_id> [--email E] [--name N]',
      });
    }
    const access = await sourceAccess(services, invocation, SCOPES.imports, {
      ...commandRef(importMapAuthorCommand, args),
    });
    if ('card' in access) return access.card;
    const author = await orMissing(
      () =>
        access.client.imports(...split(args.repo)).mapAuthor(args.authorId, {
          ...(args.email ? { email: args.email } : {}),
          ...(args.name ? { name: args.name } : {}),
        }),
      `There is no commit author ${args.authorId} in an import into ${args.repo}.`,
      `See the authors with /source import authors ${args.repo}.`,
    );
    return {
      text: `Commits of ${author.remote_name} in ${args.repo} will be by ${author.name} <${author.email}>.`,
      status: 'success',
    };
  },
});

/** A push refuses files over this size (100 MiB) unless they are in Git LFS. */
const PUSH_LIMIT_BYTES = 100 * 1024 * 1024;

/** `157286400` → `150.0 MB`. */
function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** How many of the files a push would refuse, as a sentence (empty when none would be). */
function overLimitNote(files: readonly { size: number }[]): string {
  const over = files.filter((f) => f.size > PUSH_LIMIT_BYTES).length;
  if (over === 0) return 'None is over 100 MB, so a push takes them as they are. ';
  return `${over === files.length ? (over === 1 ? 'It is' : 'All are') : `${over} of them are`} over 100 MB, which a push refuses. `;
}

/** `/source import large-files <owner/repo>`. */
export const importLargeFilesCommand = linkedCommand({
  name: 'source import large-files',
  args: z.object({ repo }),
  positional: ['repo'],
  examples: ['/source import large-files mona/legacy-svn'],
  permission: 'read',
  scopes: () => SCOPES.imports,
  async run({ args, client }) {
    const files = await noImport(args.repo, () => client.imports(...split(args.repo)).largeFiles());
    if (files.length === 0)
      return { text: `The import into ${args.repo} found no large files.`, status: 'info' };
    return {
      title: `Large files in the import into ${args.repo}`,
      code: {
        text: table([['PATH', 'REF', 'SIZE'], ...files.map((f) => [f.path, f.ref_name, megabytes(f.size)])]),
      },
      status: 'warning',
      footer: `${overLimitNote(files)}Keep them with Git LFS: /source import lfs ${args.repo} opt_in (or remove them: opt_out).`,
    };
  },
});

/** `/source import lfs <owner/repo> <opt_in|opt_out>`. */
export const importLfsCommand = linkedCommand({
  name: 'source import lfs',
  args: z.object({ repo, choice: z.enum(['opt_in', 'opt_out']).describe('opt-choice') }),
  positional: ['repo', 'choice'],
  examples: ['/source import lfs mona/legacy-svn opt_in'],
  permission: 'read',
  sideEffect: true,
  scopes: () => SCOPES.imports,
  async run({ args, client }) {
    const item = await noImport(args.repo, () => client.imports(...split(args.repo)).setLfs(args.choice));
    return importCard(args.repo, item);
  },
});

/** `/source import cancel <owner/repo>` (confirmed first). */
export const importCancelCommand = linkedCommand({
  name: 'source import cancel',
  args: z.object({ repo }),
  positional: ['repo'],
  examples: ['/source import cancel mona/legacy-svn'],
  permission: 'read',
  sideEffect: true,
  confirm: (args) => `Stop the import into ${args.repo}? It has to be started again from the beginning.`,
  scopes: () => SCOPES.imports,
  async run({ args, client }) {
    await noImport(args.repo, () => client.imports(...split(args.repo)).cancel());
    return { text: `Stopped the import into ${args.repo}.`, status: 'success' };
  },
});

/** `/source import follow <owner/repo>`: announce when its import ends, here. */
export const importFollowCommand = linkedCommand({
  name: 'source import follow',
  args: z.object({ repo }),
  positional: ['repo'],
  examples: ['/source import follow mona/legacy-svn'],
  permission: 'read',
  sideEffect: true,
  scopes: () => SCOPES.imports,
  async run({ args, services, invocation, client }) {
    const item = await noImport(args.repo, () => client.imports(...split(args.repo)).status());
    await services.accounts.followers.follow(args.repo, invocation.conversationId);
    const hook = services.accounts.webhooksConfigured
      ? ''
      : ' (an admin must set SOURCEHOST_WEBHOOK_SECRET and add the webhook first)';
    const ended = ENDED[item.status];
    if (ended) {
      // Nothing more will happen to this import: say how it ended instead of promising news.
      const card = importCard(args.repo, item);
      return {
        ...card,
        text: `The import into ${args.repo} has already ended: ${ended} (${item.status}).\n${card.text ?? ''}\nThis conversation will hear when a new import into ${args.repo} ends${hook}.`,
      };
    }
    return {
      text: `This conversation will hear when the import into ${args.repo} ends${hook}.`,
      status: 'success',
    };
  },
});

/** `/source import unfollow <owner/repo>`. */
export const importUnfollowCommand = command({
  name: 'source import unfollow',
  args: z.object({ repo }),
  positional: ['repo'],
  examples: ['/source import unfollow mona/legacy-svn'],
  permission: 'read',
  sideEffect: true,
  async run({ args, services, invocation }) {
    const removed = await services.accounts.followers.unfollow(args.repo, invocation.conversationId);
    return {
      text: removed
        ? `No more announcements about the import into ${args.repo} here.`
        : `This conversation was not following ${args.repo}.`,
      status: 'info',
    };
  },
});
