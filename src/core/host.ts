/**
 * What a chat platform adapter may reach: the ports the composition root (`src/wiring/`) implements
 * and hands to each adapter. Adapters import these interfaces, `src/config` and their own SDK, never
 * the application, the stores or the services themselves (the shape of grammY's `StorageAdapter`
 * and vercel/chat's `StateAdapter`: the framework names the port, the host fills it).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import type { ActionStore, BindingStore } from './actions';
import type { AdminLogOutbox } from './admin-log-outbox';
import type { Invocation } from './command';
import type { CommandQueue, CommandSurfaces } from './command-job';
import type { CommandRunner } from './command-runner';
import type { FileResolvers } from './files';
import type { LanguageStore } from './languages';
import type { LineOutbox } from './line-outbox';
import type { Messengers } from './messenger';
import type { Card } from './reply';
import type { SuggestionLister } from './suggestions';
import type { LinksSeen, UnfurlCard } from './unfurls';

/** At-most-once claims: true the first time a key is claimed within its window, false for every repeat. */
export interface DeliveryDeduper {
  /** Throws `StoreUnavailableError` when the claim cannot be recorded (then nothing may run). */
  claim(key: string): Promise<boolean>;
  /** Forgets a claim, so the key may be claimed again at once. */
  release?(key: string): Promise<void>;
}

/**
 * An adapter's own small state under one namespace (`<REDIS_KEY_PREFIX><namespace>:<key>`). A sealed
 * namespace encrypts every value at rest with `SECRET_KEY`, bound to its key; a value sealed with
 * `SECRET_KEY_PREVIOUS` is sealed again with the current key when it is read.
 */
export interface KeyValueStore {
  /** The value, or undefined when there is none (or it expired). */
  get(key: string): Promise<string | undefined>;
  /** Stores a value, expiring after `ttlMs` when given. */
  set(key: string, value: string, options?: { ttlMs?: number }): Promise<void>;
  /** Takes a value: reads and deletes it at once (single use). */
  take(key: string): Promise<string | undefined>;
  /** Deletes a value; true when there was one. */
  delete(key: string): Promise<boolean>;
}

/**
 * Seals single values (a secret answer inside a larger record) with the same keys and rotation as
 * sealed namespaces. `context` names the value's slot: a value opens only under the context it was
 * sealed with.
 */
export interface ValueSealer {
  seal(plaintext: string, context: string): string;
  /** Opens a sealed value; `stale` says it should be sealed again (older key or format). */
  open(sealed: string, context: string): { plaintext: string; stale: boolean };
}

/** An HTTP handler on the one web server. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Where adapters mount their webhook routes (the one HTTP server). */
export interface RouteRegistrar {
  /** Adds a route; `path` may end in `*` to match a prefix. */
  route(method: string, path: string, handler: RouteHandler): void;
}

/** The services an adapter reads directly (everything else goes through the command runner). */
export interface AdapterServices {
  /** Conversations bound to a tool (routing a bare command to its tool). */
  bindings: BindingStore;
}

/**
 * Follows a conversation that the platform moved to a new id (a group upgraded to a
 * supergroup): what Deckhand keeps for it — binding, time zone, subscriptions, digest — moves along.
 */
export interface ConversationMover {
  /** Moves everything kept under `from` to `to`; resolves with what was moved. */
  move(from: string, to: string): Promise<string[]>;
}

/** The running core as one adapter sees it. */
export interface AdapterHost {
  /** Runs commands, clicks and forms; its registry is the command catalogue (manifests, help, autocomplete). */
  runner: CommandRunner<unknown>;
  /** Where the adapter registers how to post and edit on its platform. */
  messengers: Messengers;
  /** Where the adapter registers how files its users sent are reopened. */
  files: FileResolvers;
  /** Where a `web` process hands acknowledged commands to the workers. */
  commandQueue: CommandQueue;
  /** Where the adapter registers how a worker rebuilds the reply surface of a queued command. */
  surfaces: CommandSurfaces;
  services: AdapterServices;
  /** The values autocomplete offers (the feature that owns each listing fills it). */
  suggestions: SuggestionLister;
  /** Claims remembered for `seconds` (double clicks), on the request-path connection. */
  claims(seconds: number): DeliveryDeduper;
  /** Stored button actions (a confirmation's dialog text is read from its stored action). */
  actions: ActionStore;
  /** An adapter's key-value state under `namespace` (form stashes, installations), sealed when asked. */
  keyValue(namespace: string, options?: { sealed?: boolean }): KeyValueStore;
  /** Seals single secret values at rest (form answers kept between steps). */
  sealer: ValueSealer;
  /**
   * The `/language` settings the command runner reads: for the adapter's own words (form steps,
   * refusals of buttons and lines) where the platform says no language, or one Deckhand does not speak.
   */
  languages?: LanguageStore | undefined;
  /** Moves a conversation's stored state when the platform gives it a new id. */
  conversations?: ConversationMover | undefined;
  /**
   * The Redis connection for state beyond key-value (DM channel ids, upload marks in sets and hashes).
   * Keys must start with `config.REDIS_KEY_PREFIX`.
   */
  state: Redis;
  /** Where the chat link that carries Server Admin Log lines hands over its outbox. */
  adminLogLink: AdminLogLink;
  /**
   * Link unfurls: the cards of the links someone posted (run as them), each link shown once per
   * conversation within the window; nothing for links Deckhand does not know.
   */
  unfurl(seen: LinksSeen): Promise<UnfurlCard[]>;
  /**
   * The person's home view (their tools, links, locks, approvals and claims), as the cards its
   * command answers them with: for a platform's own home screen, drawn by the adapter.
   */
  home(invocation: Invocation): Promise<Card[]>;
  /**
   * The outbound queue of a platform whose link lives in one process: any process queues lines,
   * the process holding the link delivers them.
   */
  outbox(platform: string): LineOutbox;
}

/** Where the chat link that carries Server Admin Log lines hands over its outbox. */
export interface AdminLogLink {
  /** Sends SAL lines through `outbox` from now on (the last one attached wins). */
  attach(outbox: AdminLogOutbox): void;
}
