/**
 * The command side of the application, built by `createApp`: the card publisher (what every reply,
 * announcement and edit goes through) and the command runner (what every typed command, click and
 * form goes through), over the registry of every command.
 */
import type { Logger } from 'pino';
import { ALL_COMMANDS, type AppServices, LINK_RECOGNISERS } from '../../commands';
import type { Config } from '../config';
import type { ResourceLocks } from '../coordination/locks';
import type { ActionStore, BindingStore } from '../core/actions';
import { ApprovalGate } from '../core/approval-gate';
import { CardPublisher } from '../core/card-publisher';
import type { ChatUser } from '../core/command';
import type { AuditEntry } from '../core/command-audit';
import { CommandRunner } from '../core/command-runner';
import type { EffectLedger } from '../core/effects';
import type { DeliveryDeduper } from '../core/host';
import type { LanguageStore } from '../core/languages';
import type { Messengers } from '../core/messenger';
import type { Policy } from '../core/policy';
import type { CommandRegistry } from '../core/registry';
import type { TimeZoneStore } from '../core/times';
import { LinkUnfurls } from '../core/unfurls';
import { deferToJob } from '../queue/job-writes';
import type { SecretScrubber } from '../secrets';
import { commandForms, conversationBudget, platformWords } from './platforms';

/** What the card publisher is built from. */
export interface PublisherOptions {
  config: Config;
  logger: Logger;
  actions: ActionStore;
  messengers: Messengers;
  secrets: SecretScrubber;
  timeZones: TimeZoneStore;
  /** The conversations' languages (`/language --here`). */
  languages?: LanguageStore;
}

/** The card publisher, writing commands in each platform's form (`/deckhand deploy` after a namespaced command). */
export function createPublisher(options: PublisherOptions): CardPublisher {
  const groups = new Set(ALL_COMMANDS.map((command) => command.name.split(' ')[0] as string));
  return new CardPublisher({
    actions: options.actions,
    messengers: options.messengers,
    logger: options.logger,
    secrets: options.secrets,
    timeZones: options.timeZones,
    ...(options.languages ? { languages: options.languages } : {}),
    commandForms: commandForms(options.config, [...groups]),
    budgets: conversationBudget,
  });
}

/** What the command runner is built from. */
export interface RunnerOptions {
  registry: CommandRegistry<AppServices>;
  services: AppServices;
  publisher: CardPublisher;
  actions: ActionStore;
  bindings: BindingStore;
  policy: Policy;
  audit: (entry: AuditEntry) => Promise<void>;
  effects: EffectLedger;
  locks: ResourceLocks;
  secrets: SecretScrubber;
  /** The linked cross-platform identity of a chat user: an approver must not be the requester. */
  identityOf?: (user: ChatUser) => Promise<string | undefined>;
  /** The tools Deckhand knows (for "did you mean" and secret checks on failed lines). */
  knownTools: () => Iterable<string>;
  /** Claims of shown links, remembered for the unfurl window. */
  unfurlClaims: DeliveryDeduper;
}

/** Fills the registry with every command and builds the runner over it. */
export function createRunner(options: RunnerOptions): CommandRunner<AppServices> {
  for (const command of ALL_COMMANDS) options.registry.add(command);
  const { locks } = options;
  return new CommandRunner<AppServices>({
    registry: options.registry,
    services: options.services,
    publisher: options.publisher,
    actions: options.actions,
    bindings: options.bindings,
    policy: options.policy,
    audit: options.audit,
    deferWrite: deferToJob,
    ...(options.identityOf ? { identityOf: options.identityOf } : {}),
    effects: options.effects,
    exclusive: (resource, work) => locks.withLock(resource, work),
    approvals: new ApprovalGate({
      store: options.services.accounts.approvals,
      publisher: options.publisher,
      elsewhere: async (tool, here) =>
        (await options.services.subscriptions.forTool(tool))
          .filter((s) => !s.broken && s.conversationId !== here)
          .map((s) => s.conversationId),
      ...(options.services.languages ? { languages: options.services.languages } : {}),
      policy: options.policy,
      ...(options.identityOf ? { identityOf: options.identityOf } : {}),
      logger: options.services.logger,
    }),
    logger: options.services.logger,
    secrets: options.secrets,
    knownTools: options.knownTools,
    platformWords,
    ...(options.services.languages ? { languages: options.services.languages } : {}),
    unfurls: new LinkUnfurls({ recognisers: LINK_RECOGNISERS, claims: options.unfurlClaims }),
  });
}
