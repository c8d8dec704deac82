/**
 * `/source import status|authors|map-author|large-files|lfs|cancel|follow|unfollow <owner/repo>`:
 * source imports with the user's linked account. `follow` announces the `repository_import` webhook
 * (an import finished, failed or was cancelled) in this conversation.
 */
import { z } from 'zod';
import { commandRef } from '../../src/core/action-ref';
import { UsageError } from '../../src/core/errors';
import { type MessageKey, type Translator, translator } from '../../src/i18n/translate';
import { SCOPES } from '../../src/services/sourcehost';
import { table } from '../format';
import { command } from './context';
import { importCard } from './source-cards';
import { linkedCommand, sourceAccess } from './source-link';
import { orMissing } from './source-missing';

const ENGLISH = translator('en');

const repo = z
  .string()
  .regex(/^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/, ENGLISH.t('import-repo-invalid'))
  .meta({ invalid: 'import-repo-invalid' })
  .describe('opt-repo-source-import-status');

function split(full: string): [string, string] {
  return full.split('/') as [string, string];
}

/** The source host's 404 for an import call, in Deckhand's words. */
function noImport<T>(repoName: string, work: () => Promise<T>): Promise<T> {
  return orMissing(work, (say) => ({
    message: say.t('import-not-found', repoName),
    hint: say.t('import-not-found-hint'),
  }));
}

/**
 * Statuses after which an import does nothing more (the `repository_import` webhook has fired): how
 * it ended, in words.
 */
const ENDED: Record<string, MessageKey> = { complete: 'import-ended-complete', error: 'import-ended-error' };

/** `/source import status <owner/repo>`. */
export const importStatusCommand = linkedCommand({
  name: 'source import status',
  args: z.object({ repo }),
  positional: ['repo'],
  examples: ['/source import status mona/legacy-svn'],
  permission: 'read',
  scopes: () => SCOPES.imports,
  async run({ args, client, say = ENGLISH }) {
    return importCard(
      args.repo,
      await noImport(args.repo, () => client.imports(...split(args.repo)).status()),
      say,
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
  async run({ args, client, say = ENGLISH }) {
    const authors = await noImport(args.repo, () => client.imports(...split(args.repo)).authors(args.since));
    if (authors.length === 0) return { text: say.t('import-no-authors', args.repo), status: 'info' };
    const rows = authors.map((a) => [String(a.id), a.remote_name, a.name, a.email]);
    const header = [
      say.t('import-column-id'),
      say.t('import-column-remote'),
      say.t('import-column-name'),
      say.t('import-column-email'),
    ];
    return {
      title: say.t('import-authors-title', args.repo),
      code: { text: table([header, ...rows]) },
      status: 'info',
      footer: say.t('import-map-author-hint', args.repo),
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
      .email({ message: ENGLISH.t('import-email-invalid') })
      .meta({ invalid: 'import-email-invalid' })
      .optional()
      .describe('opt-email-source-import-map-author'),
    name: z.string().min(1).max(200).optional().describe('opt-name-source-import-map-author'),
  }),
  positional: ['repo', 'authorId'],
  examples: ['/source import map-author mona/legacy-svn 2268557 --email hubot@example.org --name Hubot'],
  permission: 'read',
  sideEffect: true,
  async run({ args, services, invocation, say = ENGLISH }) {
    if (args.email === undefined && args.name === undefined) {
      throw UsageError.inWords((say) => ({ message: say.t('import-map-author-nothing') }), {
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
      (say) => ({
        message: say.t('import-author-not-found', args.authorId, args.repo),
        hint: say.t('import-author-not-found-hint', args.repo),
      }),
    );
    return {
      text: say.t('import-author-mapped', author.remote_name, args.repo, `${author.name} <${author.email}>`),
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

/** How many of the files a push would refuse, as a sentence. */
function overLimitNote(files: readonly { size: number }[], say: Translator): string {
  const over = files.filter((f) => f.size > PUSH_LIMIT_BYTES).length;
  if (over === 0) return say.t('import-over-limit-none');
  if (over < files.length) return say.t('import-over-limit-some', over);
  return over === 1 ? say.t('import-over-limit-it') : say.t('import-over-limit-all');
}

/** `/source import large-files <owner/repo>`. */
export const importLargeFilesCommand = linkedCommand({
  name: 'source import large-files',
  args: z.object({ repo }),
  positional: ['repo'],
  examples: ['/source import large-files mona/legacy-svn'],
  permission: 'read',
  scopes: () => SCOPES.imports,
  async run({ args, client, say = ENGLISH }) {
    const files = await noImport(args.repo, () => client.imports(...split(args.repo)).largeFiles());
    if (files.length === 0) return { text: say.t('import-no-large-files', args.repo), status: 'info' };
    const header = [say.t('import-column-path'), say.t('import-column-ref'), say.t('import-column-size')];
    return {
      title: say.t('import-large-files-title', args.repo),
      code: {
        text: table([header, ...files.map((f) => [f.path, f.ref_name, megabytes(f.size)])]),
      },
      status: 'warning',
      footer: `${overLimitNote(files, say)} ${say.t('import-lfs-hint', args.repo)}`,
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
  async run({ args, client, say = ENGLISH }) {
    const item = await noImport(args.repo, () => client.imports(...split(args.repo)).setLfs(args.choice));
    return importCard(args.repo, item, say);
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
  confirm: (args, _target, say = ENGLISH) => say.t('import-cancel-confirm', args.repo),
  scopes: () => SCOPES.imports,
  async run({ args, client, say = ENGLISH }) {
    await noImport(args.repo, () => client.imports(...split(args.repo)).cancel());
    return { text: say.t('import-cancelled', args.repo), status: 'success' };
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
  async run({ args, services, invocation, client, say = ENGLISH }) {
    const item = await noImport(args.repo, () => client.imports(...split(args.repo)).status());
    await services.accounts.followers.follow(args.repo, invocation.conversationId);
    const hooked = services.accounts.webhooksConfigured;
    const ended = ENDED[item.status];
    if (ended) {
      // Nothing more will happen to this import: say how it ended instead of promising news.
      const card = importCard(args.repo, item, say);
      const next = hooked
        ? say.t('import-follow-next', args.repo)
        : say.t('import-follow-next-no-webhook', args.repo);
      return { ...card, text: `${say.t(ended, args.repo)}\n${card.text ?? ''}\n${next}` };
    }
    return {
      text: hooked ? say.t('import-follow', args.repo) : say.t('import-follow-no-webhook', args.repo),
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
  async run({ args, services, invocation, say = ENGLISH }) {
    const removed = await services.accounts.followers.unfollow(args.repo, invocation.conversationId);
    return {
      text: removed ? say.t('import-unfollowed', args.repo) : say.t('import-not-followed', args.repo),
      status: 'info',
    };
  },
});
