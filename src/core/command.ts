import { z } from 'zod';
import { DEFAULT_LANGUAGE } from '../i18n/languages';
import { type MessageKey, type Translator, t } from '../i18n/translate';
import type { ConversationRef, Platform } from './conversation';
import type { EffectRules } from './effects';
import type { IncomingFile } from './files';
import type { FormSpec } from './forms';
import type { InvocationLanguages } from './languages';
import type { PlatformWords } from './platform-words';
import type { DraftCard } from './reply';
import type { BoundTarget, ResolveContext } from './target';

/** Who may run a command: anyone in the conversation, a tool maintainer, or an admin. */
export type PermissionLevel = 'read' | 'write' | 'admin';

/** A handle on a posted message: plain data, storable in Redis, usable from another process. */
export interface MessageHandle {
  platform: Platform;
  conversationId: string;
  /** Platform-specific message reference (channel and timestamp, channel and message id, …). */
  ref: Record<string, string>;
}

/** The person who invoked a command or clicked a button. */
export interface ChatUser {
  platform: Platform;
  /** Platform user id (the platform's own: `U…`, a snowflake, a numeric id, the terminal's user name). */
  id: string;
  /** Display name, for cards and audit. */
  name: string;
  workspace: string;
  /** The language the platform says the user reads (`de`, `en-GB`), where it says one. */
  locale?: string;
}

/** Where and by whom a command was invoked. */
export interface Invocation {
  user: ChatUser;
  conversation: ConversationRef;
  conversationId: string;
  /**
   * True when only the user sees what they typed: a direct message / private chat with the bot, the
   * terminal, or a form (modal) they submitted.
   */
  isPrivate: boolean;
  /** Files the user attached to the command or sent to the bot. */
  files?: IncomingFile[];
  /**
   * The platform delivery's key (`<platform>:trigger:…`), the same for every attempt at running it: a
   * command with a side effect recognises the effect of its own earlier, interrupted attempt by it.
   */
  key?: string;
  /** The reader's and the conversation's languages, read by the command runner (see `languages.ts`). */
  languages?: InvocationLanguages;
}

/** What a command's `run` receives. */
export interface CommandContext<A, S> {
  args: A;
  invocation: Invocation;
  services: S;
  /** Posts a card; returns the handle to update it later. */
  reply(card: DraftCard): Promise<MessageHandle | undefined>;
  /** Edits a card posted earlier (buttons are re-stored). */
  update(handle: MessageHandle, card: DraftCard): Promise<void>;
  /**
   * Asks the user for more input with a form (modal, private conversation, prompts). Resolves false
   * when this platform or place cannot show one; the command should then say where to do it.
   */
  openForm(form: FormSpec): Promise<boolean>;
  /**
   * Set when an earlier attempt at this very delivery started at `since` (ms) and was interrupted
   * (its worker died) and the command's `effect.recover` chose to run again: `run` should find that
   * attempt's work (e.g. a deployment tagged with the delivery key) rather than start it twice.
   */
  interrupted?: { since: number };
  /** The reader's platform's words (how to attach a file there, …). */
  here?: PlatformWords | undefined;
  /**
   * The words of the reply: the conversation's language, or the reader's in a private conversation
   * (a card posted with `visibility: 'private'` should use {@link CommandContext.sayPrivately}).
   */
  say?: Translator;
  /** The reader's language, for what only they see. */
  sayPrivately?: Translator;
}

/** A command as declared in `commands/`. */
export interface CommandDefinition<Schema extends z.ZodObject = z.ZodObject, S = unknown> {
  /** Space-separated path: `deploy`, `build start`. The first word is the group (one slash command). */
  name: string;
  /**
   * One line for help and manifests (≤ 100 chars, the strictest platform's limit), in English: the
   * catalog message {@link summaryKey} of the name, which help shows in the reader's language.
   */
  summary: string;
  /** Argument schema; keys in camelCase, flags are their kebab-case (`forceBuild` → `--force-build`). */
  args: Schema;
  /** Keys of `args` given by position, in order. The last may be an array (takes the rest). */
  positional?: readonly (keyof z.infer<Schema> & string)[];
  /** Example invocations, shown in help and usage errors. At least one. */
  examples: readonly string[];
  permission: PermissionLevel;
  /**
   * True when the command's `tool` argument names the user's own credential for that tool (linking
   * or unlinking it) rather than something of the tool to see: at `read` level it is open to
   * everyone, even where reading a tool needs a role on it.
   */
  selfService?: boolean;
  /** True when a user who linked a deploy token of the tool may run it for that tool. */
  deploys?: boolean;
  /**
   * True when the command changes something: audited, and run under an effect record (see
   * `effects.ts`), so it never runs twice for one delivery.
   */
  sideEffect: boolean;
  /**
   * For side-effect commands: how an attempt that finds an interrupted earlier one tells what it
   * did (and which command shows it). Without it, such an attempt says it may have run.
   */
  effect?: EffectRules<z.infer<Schema>, S>;
  /**
   * For destructive commands: the question asked with a Confirm button before running. It receives
   * the arguments as {@link resolve} bound them, and the bound target (its label) when there is one,
   * so it names the exact target.
   */
  confirm?: (args: z.infer<Schema>, target?: BoundTarget<z.infer<Schema>>, say?: Translator) => string;
  /**
   * For commands with `confirm` that only sometimes destroy: true for the arguments that ask first
   * (`/media uploads clear-all`, not `/media uploads`). Every run asks when it is left out.
   */
  confirmWhen?: (args: z.infer<Schema>) => boolean;
  /**
   * For commands with `confirm`: binds the exact target before the question is asked — resolves
   * `latest` and names to ids, and throws (a `NotFoundError` saying it does not exist) when there is
   * none, so nothing is asked. Run again at Confirm: the click acts only on the same target (same
   * arguments and version), and otherwise says it changed and does nothing.
   */
  resolve?(ctx: ResolveContext<z.infer<Schema>, S>): Promise<BoundTarget<z.infer<Schema>>>;
  /**
   * True for a deploy or a destructive change of a tool: refused while the tool is locked
   * (`/tool lock`) or inside one of its freeze windows (`/tool freeze`), before any confirmation is
   * asked (see `src/core/change-guard.ts`).
   */
  guarded?: boolean;
  /**
   * Reads `run` makes first, started early: alongside the access check, the change guard and the
   * effect claim, in their round trip. Only reads (nothing is changed); `run` finds them by its
   * invocation. Not started for a run that asks to be confirmed first.
   */
  readAhead?(ctx: ResolveContext<z.infer<Schema>, S>): void;
  /**
   * A guarded command that takes `--override` ({@link OVERRIDE_ARG}): during a lock or freeze it is
   * asked as an approval by another maintainer instead of refused. For the urgent changes (deploys,
   * rollbacks, configuration); a group at a platform's size limit leaves it off.
   */
  overridable?: boolean;
  /** Keys of `args` whose values are secrets: never logged, echoed or audited. */
  secretArgs?: readonly string[];
  /** Runs the command. A returned card is posted as the reply. */
  run(ctx: CommandContext<z.infer<Schema>, S>): Promise<DraftCard | undefined>;
}

/**
 * The `--override` flag of every guarded command: during a lock or a freeze window it asks another
 * maintainer of the tool to approve running it anyway (see `src/core/change-guard.ts`).
 */
export const OVERRIDE_ARG = z.boolean().default(false).describe('opt-override');

/** A command without arguments. */
export type NoArgs = z.ZodObject<Record<never, never>>;

/**
 * A command as written in `commands/`: a {@link CommandDefinition} whose common values may be left
 * out. Without `args` it takes none; without `positional` it takes its `tool` argument (if any) by
 * position and the rest as flags; without `examples` its one example is its bare name (with
 * `mytool` for a tool taken by position); without `sideEffect` a `write` command changes something
 * and a `read` or `admin` one does not. Its summary is the catalog's (see {@link summaryKey}).
 */
export type CommandDeclaration<Schema extends z.ZodObject = NoArgs, S = unknown> = Omit<
  CommandDefinition<Schema, S>,
  'summary' | 'args' | 'positional' | 'examples' | 'sideEffect'
> &
  Partial<Pick<CommandDefinition<Schema, S>, 'args' | 'positional' | 'examples' | 'sideEffect'>>;

/**
 * Declares a command, keeping the argument types: fills in what the declaration left out (see
 * {@link CommandDeclaration}); an overridable guarded command also takes `--override`.
 */
export function defineCommand<Schema extends z.ZodObject = NoArgs, S = unknown>(
  declaration: CommandDeclaration<Schema, S>,
): CommandDefinition<Schema, S> {
  const args = declaration.args ?? (z.object({}) as z.ZodObject as Schema);
  const takesTool = declaration.positional === undefined && 'tool' in args.shape;
  const definition: CommandDefinition<Schema, S> = {
    ...declaration,
    summary: t(DEFAULT_LANGUAGE, summaryKey(declaration.name)),
    args,
    ...(takesTool && { positional: ['tool'] as CommandDefinition<Schema, S>['positional'] & {} }),
    examples: declaration.examples ?? [`/${declaration.name}${takesTool ? ' mytool' : ''}`],
    sideEffect: declaration.sideEffect ?? declaration.permission === 'write',
  };
  if (!definition.guarded || !definition.overridable || 'override' in args.shape) return definition;
  return { ...definition, args: args.extend({ override: OVERRIDE_ARG }) as unknown as Schema };
}

/**
 * The catalog message of what a command does: `cmd-` and its name with dashes (`cmd-jobs-run`). Every
 * command has one (`test/i18n/catalog.test.ts`).
 */
export function summaryKey(name: string): MessageKey {
  return `cmd-${name.replaceAll(' ', '-')}` as MessageKey;
}

/** A command with its schema type erased, as kept in the registry. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds commands of every argument shape.
export type AnyCommand<S = unknown> = CommandDefinition<z.ZodObject, S> | CommandDefinition<any, S>;

/** `platform:workspace:user`: who a form belongs to. */
export function formOwnerKey(invocation: Invocation): string {
  return `${invocation.user.platform}:${invocation.user.workspace}:${invocation.user.id}`;
}

/** The arguments as logged: secret ones redacted. */
export function loggedArgs<S>(
  command: AnyCommand<S>,
  args: Record<string, unknown>,
): Record<string, unknown> {
  const secret = new Set(command.secretArgs ?? []);
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, secret.has(k) ? '[redacted]' : v]));
}
