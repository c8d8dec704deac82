/**
 * Builds everything account linking needs, for `createApp` (app.ts): the vault (with its key, or a
 * development key in the sandbox, said once), the pending-link and secret-form stores, the source
 * host client (or its sandbox, with the OAuth application and a webhook to Deckhand), the permission
 * policy with linked accounts, the audit trail, the migration worker, and the web routes.
 */
import { randomBytes } from 'node:crypto';
import type { SourcehostSandbox } from '@deckhand/sandbox';
import type { Processor } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ALL_COMMANDS } from '../../commands';
import { credentialVerdict } from '../../commands/accounts/credential-check';
import type { AccountServices } from '../../commands/link-services';
import type { AppServices } from '../../commands/services';
import { migrationGaveUp, observeMigration } from '../../commands/sourcehost/source-watch';
import type { Config } from '../config';
import { AccessPolicy, type PushAccess } from '../core/access';
import type { CardPublishing } from '../core/card-publisher';
import { GuardedPolicy } from '../core/change-guard';
import { type ChangeRecord, changeRecorder } from '../core/change-record';
import type { ChatUser } from '../core/command';
import type { AuditEntry } from '../core/command-audit';
import type { CommandRunner } from '../core/command-runner';
import type { Messengers } from '../core/messenger';
import type { Policy } from '../core/policy';
import type { CommandRegistry } from '../core/registry';
import { REDRAW_FAILURE_CARDS } from '../queue/failure-recovery';
import { createMigrationProcessor, followMigration } from '../queue/migration-processor';
import type { Queues } from '../queue/queues';
import { attachLogScrubber } from '../secrets';
import { SourcehostFactory } from '../services/sourcehost';
import type { ToolhostClientFactory } from '../services/toolhost';
import { RedisApprovals } from '../store/approvals';
import { AuditLog } from '../store/audit';
import { RedisFailureClaims } from '../store/failure-claims';
import { PendingLinkStore } from '../store/links';
import { ImportFollowers } from '../store/links-imports';
import { PushAccessCache } from '../store/links-permissions';
import { SecretFormStore } from '../store/links-secret-forms';
import { sweepAfterRotation } from '../store/reseal';
import { Sealer, sealerKeys } from '../store/sealer';
import { SecretIndex } from '../store/secret-index';
import { RedisToolGuards } from '../store/tool-guards';
import { CredentialVault } from '../store/vault';
import { Credentials } from '../store/vault-credentials';
import { type LinkChat, SourceLinker } from '../web/oauth-flow';
import { mountAccountRoutes, SOURCE_WEBHOOK_PATH } from '../web/oauth-routes';
import { type SecretFormChat, SecretForms } from '../web/secret-flow';
import type { WebServer } from '../web/server';
import { LinkedAccountAccess, SANDBOX_MIRROR_HOST } from './linked-access';
import { CHAT_PLATFORMS, platformNamed } from './platforms';

/** Options of {@link createAccounts}. */
export interface AccountsOptions {
  config: Config;
  logger: Logger;
  redis: Redis;
  prefix: string;
  sandbox: boolean;
  /** The source host's emulator, when it runs (sandbox mode without `SOURCEHOST_URL`, see service-modes.ts). */
  sourcehostEmulator?: SourcehostSandbox | undefined;
  toolhost: ToolhostClientFactory;
  queues: Queues;
  /** Admins besides `ADMINS` (the terminal user). */
  extraAdmins: readonly string[];
  /** The command catalogue: which commands the change guard holds (locks, freezes). */
  registry: CommandRegistry<AppServices>;
  /** The tools Deckhand knows of (where a linked account's push access makes someone a maintainer). */
  knownTools?: () => Iterable<string>;
  /** Told of every change record once the audit trail stored it (scrubbed); never awaited. */
  onChange?: (record: ChangeRecord) => void;
}

/** Account linking, built. */
export interface Accounts {
  services: AccountServices;
  /** The access rules, with the change guard (locks and freezes) after them. */
  policy: Policy;
  /** The linked cross-platform identity of a chat user (`source:<login>`), if any. */
  identityOf(user: ChatUser): Promise<string | undefined>;
  /** The command runner's audit hook: one change record per side-effect command. */
  audit(entry: AuditEntry): Promise<void>;
  /** The one sealer of secrets at rest (`SECRET_KEY`, `SECRET_KEY_PREVIOUS`). */
  sealer: Sealer;
  /** The processor of the `migration` queue. */
  migrationProcessor(deps: {
    services: AppServices;
    /** Edits the migration's card and posts its announcements. */
    cards: Pick<CardPublishing, 'post' | 'update'>;
    basePollMs: number;
    maxAgeMs: number;
  }): Processor;
  /**
   * Mounts the OAuth callback, secret form and webhook routes; their outcomes reach the chat through
   * `host` (posted, commands that waited for a link run again, credentials checked with the services).
   */
  mount(web: WebServer, host: AccountsHost): void;
  /** Tells where the web server listens (the public URL when `PUBLIC_URL` is not set). */
  listening(port: number): void;
  /** The public base URL links use. */
  publicUrl(): string;
  close(): Promise<void>;
}

/** What the account routes reach once the application is built. */
export interface AccountsHost {
  publisher: CardPublishing;
  runner: CommandRunner<AppServices>;
  messengers: Messengers;
  services: AppServices;
}

/**
 * How the account flows reach the chat: outcomes posted (in the conversation's language, where
 * everyone there reads them), commands that waited for a link run again, credentials checked with
 * their services (the verdict in the words of the page's reader).
 */
export function accountChat(host: AccountsHost): LinkChat & SecretFormChat {
  const languages = host.services.languages;
  return {
    publisher: host.publisher,
    runner: host.runner as CommandRunner<unknown>,
    messengers: host.messengers,
    verify: (kind, values, tool, say) => credentialVerdict(host.services, kind, values, tool, say),
    ...(languages ? { language: (conversationId: string) => languages.ofConversation(conversationId) } : {}),
  };
}

/** Any chat platform configured, even half-way (then a real `SECRET_KEY` is required). */
function platformConfigured(config: Config): boolean {
  return CHAT_PLATFORMS.some(
    (platform) => platform.configured(config) || platform.missing(config, 'all') !== undefined,
  );
}

/** Builds the account services. */
export async function createAccounts(options: AccountsOptions): Promise<Accounts> {
  const { config, logger, redis, prefix } = options;
  const keys = sealerKeys(config, options.sandbox || !platformConfigured(config));
  if (keys.development) {
    logger.warn(
      'SECRET_KEY is not set: stored credentials use a development key derived on this machine (sandbox only).',
    );
  }
  const cipher = new Sealer(keys);
  if (keys.previous?.length) sweepAfterRotation(redis, prefix, cipher, logger);
  const secrets = new SecretIndex(redis, { key: keys.current, prefix, config });
  const detachLogScrubber = attachLogScrubber(secrets);
  const vault = new CredentialVault(redis, cipher, prefix, secrets);
  let publicUrl = (
    config.PUBLIC_URL ?? `http://${options.sandbox ? '127.0.0.1' : 'localhost'}:${config.PORT}`
  ).replace(/\/+$/, '');
  const sandbox = options.sourcehostEmulator;
  if (sandbox) {
    // The emulator starts with no tokens: links made against the last run's emulator are void.
    const forgotten = await vault.forgetEveryone('source');
    if (forgotten > 0)
      logger.warn(
        `sandbox: the source host emulator starts afresh, so ${forgotten} source-host link(s) from the last run were removed; link again with /link source`,
      );
  }
  const webhookSecret =
    config.SOURCEHOST_WEBHOOK_SECRET ?? (sandbox ? randomBytes(32).toString('hex') : undefined);
  await secrets.register(webhookSecret);
  await secrets.register(sandbox?.clientSecret);
  const sourcehost = new SourcehostFactory({
    apiUrl: sandbox?.apiUrl ?? config.SOURCEHOST_URL ?? 'https://api.github.com',
    webUrl: sandbox?.webUrl ?? config.SOURCEHOST_WEB_URL ?? 'https://github.com',
    clientId: sandbox?.clientId ?? config.SOURCEHOST_CLIENT_ID,
    clientSecret: sandbox?.clientSecret ?? config.SOURCEHOST_CLIENT_SECRET,
    timeoutMs: config.SOURCEHOST_TIMEOUT_MS,
  });
  const pushCache = new PushAccessCache<PushAccess>(redis, prefix, config.PERMISSION_CACHE_SECONDS);
  const credentials = new Credentials(vault, {
    MEDIA_API_KEY: (config as { MEDIA_API_KEY?: string }).MEDIA_API_KEY,
    CALENDAR_USER: config.CALENDAR_USER,
    CALENDAR_APP_PASSWORD: config.CALENDAR_APP_PASSWORD,
  });
  const webHost = new URL(sourcehost.webUrl).host;
  const repoHosts = [webHost, ...config.SOURCEHOST_REPO_HOSTS, ...(sandbox ? [SANDBOX_MIRROR_HOST] : [])];
  const linkedAccess = new LinkedAccountAccess({
    credentials,
    sourcehost,
    toolhost: options.toolhost,
    cache: pushCache,
    repoHosts,
    logger,
  });
  const policy = new AccessPolicy({
    admins: [...config.ADMINS, ...options.extraAdmins],
    maintainers: config.TOOL_MAINTAINERS,
    readAccess: config.READ_ACCESS,
    linked: linkedAccess,
    commands: ALL_COMMANDS,
    ...(options.knownTools ? { knownTools: options.knownTools } : {}),
  });
  const audit = new AuditLog(redis, prefix, secrets);
  const guards = new RedisToolGuards(redis, prefix);
  const identityOf = async (user: ChatUser): Promise<string | undefined> => {
    const login = (await credentials.source(user))?.login;
    return login ? `source:${login}` : undefined;
  };
  const linker = new SourceLinker({
    sourcehost,
    pending: new PendingLinkStore(redis, cipher, prefix),
    vault,
    pushCache: pushCache as PushAccessCache<unknown>,
    publicUrl: () => publicUrl,
    platformWords: platformNamed,
    logger,
  });
  const secretForms = new SecretForms({
    store: new SecretFormStore(redis, cipher, prefix),
    vault,
    publicUrl: () => publicUrl,
    logger,
  });
  const followers = new ImportFollowers(redis, prefix);
  const services: AccountServices = {
    vault,
    secrets,
    credentials,
    sourcehost,
    toolSource: (tool) => linkedAccess.sourceOf(tool),
    linker,
    secretForms,
    followers,
    pushCache,
    access: policy,
    audit,
    guards,
    approvals: new RedisApprovals(redis, prefix),
    failures: new RedisFailureClaims(redis, prefix, async (scope) => {
      await options.queues.notify.add(REDRAW_FAILURE_CARDS, scope, {
        removeOnComplete: true,
        removeOnFail: { age: 3600 },
      });
    }),
    webhooksConfigured: webhookSecret !== undefined,
    followMigration: (request) =>
      followMigration(options.queues.migration, {
        owner: request.owner,
        id: request.id,
        user: {
          platform: request.user.platform,
          workspace: request.user.workspace,
          id: request.user.id,
          name: request.user.name,
        },
        conversationId: request.conversationId,
        isPrivate: request.isPrivate,
        ...(request.handle ? { handle: request.handle } : {}),
      }),
  };
  return {
    services,
    policy: new GuardedPolicy({
      inner: policy,
      store: guards,
      isGuarded: (name) => options.registry.get(name)?.guarded === true,
      isOverridable: (name) => options.registry.get(name)?.overridable === true,
    }),
    sealer: cipher,
    identityOf,
    audit: changeRecorder({
      identityOf,
      write: async (record) => {
        const stored = await audit.append(record);
        options.onChange?.(stored);
      },
    }),
    migrationProcessor(deps) {
      return createMigrationProcessor({
        observe: (data) => observeMigration(deps.services, data),
        gaveUp: (data, reason) => migrationGaveUp(deps.services, data, reason),
        cards: deps.cards,
        redis,
        prefix,
        logger,
        basePollMs: deps.basePollMs,
        maxPollMs: Math.max(deps.basePollMs, 15_000),
        maxAgeMs: deps.maxAgeMs,
      }) as Processor;
    },
    mount(web, host) {
      mountAccountRoutes(web, {
        linker,
        secretForms,
        followers,
        webhookSecret,
        chat: accountChat(host),
        logger,
      });
    },
    listening(port) {
      if (!config.PUBLIC_URL) publicUrl = `http://${sandbox ? '127.0.0.1' : 'localhost'}:${port}`;
      if (sandbox && webhookSecret && !sandbox.state.hooks.some((h) => h.url.startsWith(publicUrl))) {
        sandbox.controls.addHook(`${publicUrl}${SOURCE_WEBHOOK_PATH}`, webhookSecret);
      }
    },
    publicUrl: () => publicUrl,
    async close() {
      detachLogScrubber();
      await sourcehost.close();
    },
  };
}
