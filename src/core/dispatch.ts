import type { Logger } from 'pino';
import type { z } from 'zod';
import { currentInvocationId, newInvocationId, runWithInvocation } from '../log';
import { commandCounter, commandDuration } from '../metrics';
import { type SecretScrubber, scrubSecrets } from '../secrets';
import { type ActionStore, type BindingStore, DISMISS_COMMAND, type StoredAction } from './actions';
import { bindTokens, mayTakeBoundTool, validateArgs } from './bind';
import type { AnyCommand, CommandContext, Invocation, MessageHandle } from './command';
import { type CommandForm, type CommandForms, cardInForm, PLAIN_FORM, plainForms } from './command-form';
import { parseConversationId } from './conversation';
import { type EffectLedger, runRecorded } from './effects';
import { DeckhandError, newReferenceId, PermissionDenied, UpstreamError, UsageError } from './errors';
import type { FormSpec } from './forms';
import type { Messengers } from './messenger';
import { holdsSecret, pastedSecretError } from './pasted-secret';
import type { Policy } from './policy';
import type { CommandRegistry } from './registry';
import type { ActionRequest, Card, DraftCard } from './reply';
import { scrubCard } from './scrub-card';
import { fingerprint, targetChanged } from './target';
import type { TimeZoneStore } from './times';
import { type Token, tokenize } from './tokenize';
import { upstreamWords } from './upstream-words';
import { toolElsewhere } from './word-order';

/** What the dispatcher needs from the application. */
export interface DispatcherDeps<S> {
  registry: CommandRegistry<S>;
  services: S;
  actions: ActionStore;
  bindings: BindingStore;
  policy: Policy;
  messengers: Messengers;
  logger: Logger;
  /** Masks registered secrets in every public card (see `src/core/scrub-card.ts`). */
  secrets?: SecretScrubber;
  /** The conversations' time zones (`/timezone`), stamped on every card rendered for them. */
  timeZones?: TimeZoneStore;
  /** Seconds a button stays valid by default. */
  actionTtlSeconds?: number;
  /**
   * Runs `work` alone for `resource` across every process (a Redis lock): confirmed destructive
   * commands on one target run one at a time, the later ones then find the target changed.
   */
  exclusive?: <T>(resource: string, work: () => Promise<T>) => Promise<T>;
  /** The tools Deckhand knows, to say `/logs mytool web` was meant when `/logs web mytool` fails. */
  knownTools?: () => Iterable<string>;
  /** The effect records of side-effect commands run for a platform delivery (see `effects.ts`). */
  effects?: EffectLedger;
  /** How commands are written on each platform (help, usage, hints); the plain `/deploy` by default. */
  commandForms?: CommandForms;
  /** Called after every side-effect command run or refusal (the audit trail); secret arguments are left out. */
  audit?: (entry: {
    invocation: Invocation;
    command: string;
    args: Record<string, unknown>;
    outcome: string;
  }) => Promise<void>;
}

/** A click on a Confirm button: what was confirmed, as the question named it. */
interface Confirmation {
  target: StoredAction['target'];
}

/** An adapter's surface: replies in the conversation of one invocation, as rendered cards. */
export interface CardSurface {
  reply(card: Card): Promise<MessageHandle | undefined>;
  update(handle: MessageHandle, card: Card): Promise<void>;
  /**
   * Shows a stored form to the user (modal, private conversation, prompts); its answers come back
   * through {@link Dispatcher.handleForm}. Absent where the platform or place cannot show one; resolves
   * `false` when it could not show this one (the command then answers as if there were no forms).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: adapters that always show it return nothing
  openForm?(formId: string, form: FormSpec): Promise<void | boolean>;
}

/**
 * Turns text commands, structured commands (Discord options) and button clicks into command runs:
 * parse, fill in the bound tool, check permission, confirm destructive ones, run, and answer every
 * failure with a short message (never a stack trace).
 */
export class Dispatcher<S> {
  private readonly ttl: number;

  constructor(private readonly deps: DispatcherDeps<S>) {
    this.ttl = deps.actionTtlSeconds ?? 24 * 3600;
  }

  /** The command registry. */
  get registry(): CommandRegistry<S> {
    return this.deps.registry;
  }

  /** How commands are written in a conversation (`/deploy` or Slack's `/deckhand deploy`). */
  formOf(conversationId: string): CommandForm {
    let platform: Invocation['user']['platform'];
    try {
      platform = parseConversationId(conversationId).platform;
    } catch {
      return PLAIN_FORM;
    }
    return (this.deps.commandForms ?? plainForms)(platform);
  }

  /** Handles a text command line such as `/deploy mytool --force-build`. */
  async handleText(text: string, invocation: Invocation, surface: CardSurface): Promise<void> {
    await this.invoked(async (ran) => {
      let resolved: { command: AnyCommand<S>; rest: Token[] } | undefined;
      try {
        const tokens = tokenize(text.trim());
        resolved = this.deps.registry.resolve(tokens);
        const { command, rest } = resolved;
        ran.command = command.name;
        // The binding is read only when it could fill `<tool>`: one Redis round trip less otherwise.
        const boundTool = mayTakeBoundTool(command as AnyCommand<unknown>, rest)
          ? await this.deps.bindings.get(invocation.conversationId)
          : undefined;
        const args = bindTokens(command as AnyCommand<unknown>, rest, boundTool ? { boundTool } : {});
        ran.outcome = await this.execute(command, args, invocation, surface, undefined);
      } catch (error) {
        if (error instanceof DeckhandError && (await this.echoesSecret(text, resolved, invocation))) {
          ran.outcome = await this.fail(ran.command, pastedSecretError(), invocation, surface);
          return;
        }
        const reordered = resolved && error instanceof DeckhandError ? this.toolFirst(resolved) : undefined;
        ran.outcome = await this.fail(ran.command, error, invocation, surface, reordered);
      }
    });
  }

  /** Handles a command given as a name and an argument object (Discord options, forms). */
  async handleStructured(
    commandName: string,
    rawArgs: Record<string, unknown>,
    invocation: Invocation,
    surface: CardSurface,
  ): Promise<void> {
    await this.invoked(async (ran) => {
      try {
        const command = this.deps.registry.get(commandName);
        if (!command) throw new UsageError(`Unknown command /${commandName}.`, { hint: 'Try /help.' });
        ran.command = command.name;
        const boundTool = await this.deps.bindings.get(invocation.conversationId);
        const filled = { ...rawArgs };
        if ('tool' in (command.args as z.ZodObject).shape && filled.tool === undefined && boundTool) {
          filled.tool = boundTool;
        }
        const args = validateArgs(command as AnyCommand<unknown>, filled);
        ran.outcome = await this.execute(command, args, invocation, surface, undefined);
      } catch (error) {
        ran.outcome = await this.fail(ran.command, error, invocation, surface);
      }
    });
  }

  /** Handles a button click by its short action id; rights are checked for the person who clicked. */
  async handleAction(actionId: string, invocation: Invocation, surface: CardSurface): Promise<void> {
    await this.invoked(async (ran) => {
      ran.command = 'action';
      try {
        const action = await this.deps.actions.load(actionId);
        if (!action || action.expiresAt < Date.now()) {
          throw new UsageError('This button has expired.', {
            hint: 'Run the command again to get fresh buttons.',
          });
        }
        if (action.command === DISMISS_COMMAND) {
          await this.dismiss(actionId, action.args, surface);
          ran.outcome = 'dismissed';
          return;
        }
        const command = this.deps.registry.get(action.command);
        if (!command) throw new UsageError('This button belongs to a command that no longer exists.');
        ran.command = command.name;
        if (action.confirmed) await this.deps.actions.remove(actionId);
        const args = validateArgs(command as AnyCommand<unknown>, action.args);
        const confirmation = action.confirmed === true ? { target: action.target } : undefined;
        ran.outcome = await this.execute(command, args, invocation, surface, confirmation);
      } catch (error) {
        ran.outcome = await this.fail(ran.command, error, invocation, surface);
      }
    });
  }

  /**
   * Handles the answers of a form: runs its command with the form's fixed arguments plus the
   * answers, as a private invocation of the person who submitted it (who must be the one it was
   * opened for). Forms are single use.
   */
  async handleForm(
    formId: string,
    values: Record<string, string>,
    invocation: Invocation,
    surface: CardSurface,
  ): Promise<void> {
    await this.invoked(async (ran) => {
      ran.command = 'form';
      try {
        const form = await this.deps.actions.loadForm(formId);
        if (!form || form.expiresAt < Date.now()) {
          throw new UsageError('This form has expired.', {
            hint: 'Run the command again to get a fresh one.',
          });
        }
        if (form.userKey !== userKey(invocation)) {
          throw new PermissionDenied('This form was opened for someone else.');
        }
        await this.deps.actions.removeForm(formId);
        const command = this.deps.registry.get(form.command);
        if (!command) throw new UsageError('This form belongs to a command that no longer exists.');
        ran.command = command.name;
        const answers: Record<string, unknown> = {};
        for (const field of form.fields) {
          const value = values[field.name];
          if (value !== undefined && value !== '') answers[field.name] = value;
        }
        const args = validateArgs(command as AnyCommand<unknown>, { ...form.args, ...answers });
        ran.outcome = await this.execute(
          command,
          args,
          { ...invocation, isPrivate: true },
          surface,
          undefined,
        );
      } catch (error) {
        ran.outcome = await this.fail(ran.command, error, invocation, surface);
      }
    });
  }

  /**
   * Stores a draft card's actions and returns the card with short-id buttons; known secrets are masked
   * unless the card is private (shown only to the person who asked).
   */
  async render(draft: DraftCard, conversationId: string): Promise<Card> {
    const { actions, tool, deferred: _deferred, audit: _audit, ...plain } = draft;
    const rest = cardInForm(plain, this.formOf(conversationId));
    // The masking, the stored actions and the time zone are independent reads and writes: sent
    // together, they cost one Redis round trip before the card can be posted, not three.
    const timeZones = rest.timeZone === undefined ? this.deps.timeZones : undefined;
    const [card, buttons, zone] = await Promise.all([
      this.deps.secrets ? scrubCard({ ...rest }, this.deps.secrets, tool) : ({ ...rest } as Card),
      actions && actions.length > 0
        ? Promise.all(actions.map((a) => this.storeAction(a, conversationId)))
        : undefined,
      timeZones?.get(conversationId).catch(() => undefined),
    ]);
    if (buttons) card.buttons = buttons;
    if (zone) card.timeZone = zone;
    return card;
  }

  /** Posts a draft card to a conversation through the platform's messenger (for workers). */
  async post(
    conversationId: string,
    platform: Invocation['user']['platform'],
    draft: DraftCard,
  ): Promise<MessageHandle> {
    const card = await this.render(draft, conversationId);
    const handle = await this.deps.messengers.for(platform).post(conversationId, card);
    // Not the handle's ref: it may hold an interaction token or a response_url.
    this.deps.logger.debug({ platform, conversationId }, 'card posted');
    return handle;
  }

  /**
   * Posts a draft card in the thread of a posted message (for workers); a message of its own in the
   * parent's conversation where the platform's messenger has no threads.
   */
  async postInThread(parent: MessageHandle, draft: DraftCard): Promise<MessageHandle> {
    const card = await this.render(draft, parent.conversationId);
    const messenger = this.deps.messengers.for(parent.platform);
    return messenger.postInThread
      ? messenger.postInThread(parent, card)
      : messenger.post(parent.conversationId, card);
  }

  /** Edits a posted card through the platform's messenger (for workers and pollers). */
  async update(handle: MessageHandle, draft: DraftCard): Promise<void> {
    const card = await this.render(draft, handle.conversationId);
    await this.deps.messengers.for(handle.platform).update(handle, card);
    this.deps.logger.debug(
      { platform: handle.platform, conversationId: handle.conversationId },
      'card edited',
    );
  }

  private async storeAction(action: ActionRequest, conversationId: string, target?: StoredAction['target']) {
    const ttl = action.ttlSeconds ?? this.ttl;
    const actionId = await this.deps.actions.save({
      command: action.command,
      args: action.args,
      conversationId,
      expiresAt: Date.now() + ttl * 1000,
      ...(action.confirmed ? { confirmed: true } : {}),
      ...(target ? { target } : {}),
    });
    return { label: action.label, actionId, ...(action.style ? { style: action.style } : {}) };
  }

  private async execute(
    command: AnyCommand<S>,
    args: Record<string, unknown>,
    invocation: Invocation,
    surface: CardSurface,
    confirmation: Confirmation | undefined,
  ): Promise<RunOutcome | 'confirm'> {
    let outcome: string = 'ok';
    try {
      const ran = await this.executeUnaudited(command, args, invocation, surface, confirmation);
      outcome = ran;
      return ran;
    } catch (error) {
      outcome = error instanceof DeckhandError ? error.code : 'internal';
      throw error;
    } finally {
      if (command.sideEffect && this.deps.audit && outcome !== 'confirm' && outcome !== 'unchanged') {
        const secret = new Set(command.secretArgs ?? []);
        const kept = Object.fromEntries(Object.entries(args).filter(([key]) => !secret.has(key)));
        await this.deps
          .audit({ invocation, command: command.name, args: kept, outcome })
          .catch((error) => this.deps.logger.error({ err: error, command: command.name }, 'audit failed'));
      }
    }
  }

  private async executeUnaudited(
    command: AnyCommand<S>,
    args: Record<string, unknown>,
    invocation: Invocation,
    surface: CardSurface,
    confirmation: Confirmation | undefined,
  ): Promise<RunOutcome | 'confirm'> {
    const tool = typeof args.tool === 'string' ? args.tool : undefined;
    await this.deps.policy.check(invocation.user, command.permission, tool, command.name);
    const asks = command.confirm !== undefined && (command.confirmWhen?.(args as never) ?? true);
    if (asks && !confirmation) {
      await this.askConfirmation(command, args, invocation, surface);
      commandCounter.inc({ command: command.name, platform: invocation.user.platform, outcome: 'confirm' });
      return 'confirm';
    }
    if (asks && confirmation) {
      const exclusive = this.deps.exclusive;
      const checkAndRun = async () => {
        await this.checkTarget(command, args, invocation, confirmation);
        return this.runCommand(command, args, invocation, surface, tool);
      };
      const resource = `confirmed:${command.name}:${fingerprint(args)}`;
      return exclusive ? exclusive(resource, checkAndRun) : checkAndRun();
    }
    return this.runCommand(command, args, invocation, surface, tool);
  }

  private async runCommand(
    command: AnyCommand<S>,
    args: Record<string, unknown>,
    invocation: Invocation,
    surface: CardSurface,
    tool: string | undefined,
  ): Promise<RunOutcome> {
    const about = (draft: DraftCard): DraftCard =>
      tool && draft.tool === undefined ? { ...draft, tool } : draft;
    const reply = async (draft: DraftCard) => {
      return surface.reply(await this.render(about(draft), invocation.conversationId));
    };
    const context: CommandContext<Record<string, unknown>, S> = {
      args,
      invocation,
      services: this.deps.services,
      reply,
      update: async (handle, draft) =>
        surface.update(handle, await this.render(about(draft), invocation.conversationId)),
      openForm: async (form) => {
        if (!surface.openForm) return false;
        const formId = await this.deps.actions.saveForm({
          ...form,
          conversationId: invocation.conversationId,
          userKey: userKey(invocation),
          expiresAt: Date.now() + 10 * 60_000,
        });
        return (await surface.openForm(formId, form)) !== false;
      },
    };
    this.deps.logger.info(
      {
        command: command.name,
        user: invocation.user.id,
        platform: invocation.user.platform,
        args: this.loggable(command, args),
      },
      'command',
    );
    const result = await runRecorded(command, context, this.deps.effects, reply);
    // A command waiting for the user (e.g. to link an account) has not done its work: it is audited
    // as deferred; its replay is audited with its own outcome when it runs. One that stored nothing
    // yet is pending, and one that only showed something is not audited at all.
    const outcome: RunOutcome = result?.deferred ? 'deferred' : (result?.audit ?? 'ok');
    commandCounter.inc({ command: command.name, platform: invocation.user.platform, outcome });
    return outcome;
  }

  private async askConfirmation(
    command: AnyCommand<S>,
    args: Record<string, unknown>,
    invocation: Invocation,
    surface: CardSurface,
  ): Promise<void> {
    const bound = command.resolve
      ? await command.resolve({ args, invocation, services: this.deps.services })
      : undefined;
    const boundArgs = (bound?.args ?? args) as Record<string, unknown>;
    const question = command.confirm?.(boundArgs as never, bound as never) ?? `Run /${command.name}?`;
    const confirm = await this.storeAction(
      {
        label: 'Confirm',
        command: command.name,
        args: boundArgs,
        style: 'danger',
        confirmed: true,
        ttlSeconds: 600,
      },
      invocation.conversationId,
      bound
        ? { label: bound.label, ...(bound.version !== undefined ? { version: bound.version } : {}) }
        : undefined,
    );
    const cancel = await this.storeAction(
      {
        label: 'Cancel',
        command: DISMISS_COMMAND,
        args: { confirmActionId: confirm.actionId },
        ttlSeconds: 600,
      },
      invocation.conversationId,
    );
    await surface.reply({
      title: 'Please confirm',
      text: this.formOf(invocation.conversationId).text(question),
      ...(bound?.preview ? { code: bound.preview } : {}),
      status: 'warning',
      buttons: [confirm, cancel],
      footer: 'These buttons expire in 10 minutes.',
    });
  }

  /**
   * At Confirm: the command's target must still be the one the question named (same arguments,
   * same version); a target that is gone says it does not exist, one that changed says so.
   */
  private async checkTarget(
    command: AnyCommand<S>,
    args: Record<string, unknown>,
    invocation: Invocation,
    confirmation: Confirmation,
  ): Promise<void> {
    if (!command.resolve) return;
    const current = await command.resolve({ args, invocation, services: this.deps.services });
    const sameArgs = fingerprint(current.args) === fingerprint(args);
    if (!sameArgs || current.version !== confirmation.target?.version) {
      throw targetChanged(confirmation.target?.label ?? current.label);
    }
  }

  /** Cancel on a confirmation: voids its Confirm button, unless that was already used. */
  private async dismiss(
    actionId: string,
    args: Record<string, unknown>,
    surface: CardSurface,
  ): Promise<void> {
    await this.deps.actions.remove(actionId);
    const confirmId = typeof args.confirmActionId === 'string' ? args.confirmActionId : undefined;
    const pending = confirmId ? await this.deps.actions.load(confirmId) : undefined;
    if (!pending) {
      await surface.reply({
        text: 'This was already confirmed or cancelled.',
        status: 'info',
        visibility: 'private',
      });
      return;
    }
    await this.deps.actions.remove(confirmId as string);
    await surface.reply({ text: 'Cancelled; nothing was changed.', status: 'info', visibility: 'private' });
  }

  private loggable(command: AnyCommand<S>, args: Record<string, unknown>): Record<string, unknown> {
    const secret = new Set(command.secretArgs ?? []);
    return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, secret.has(k) ? '[redacted]' : v]));
  }

  /** Answers a failure with its card; resolves with the outcome it counts as (`usage`, `internal`, …). */
  /**
   * True when a failed line typed where others see it holds a registered secret, global or of a tool
   * the line names or the conversation is bound to: its error would echo the secret.
   */
  private async echoesSecret(
    text: string,
    resolved: { rest: Token[] } | undefined,
    invocation: Invocation,
  ): Promise<boolean> {
    const secrets = this.deps.secrets;
    if (!secrets || invocation.isPrivate) return false;
    const known = new Set(this.deps.knownTools?.() ?? []);
    let words: Token[] = [];
    try {
      words = resolved?.rest ?? tokenize(text).slice(1);
    } catch {
      words = [];
    }
    const named = words.map((t) => t.text).filter((w) => known.has(w));
    const bound = await this.deps.bindings.get(invocation.conversationId).catch(() => undefined);
    const tools = [...new Set([...named, ...(bound ? [bound] : [])])].slice(0, 3);
    return holdsSecret(text, tools, secrets).catch(() => false);
  }

  /** "Did you mean `/logs mytool web`?" when the tool was typed in another argument's place. */
  private toolFirst(resolved: { command: AnyCommand<S>; rest: Token[] }): string | undefined {
    const tools = this.deps.knownTools ? new Set(this.deps.knownTools()) : undefined;
    if (!tools || tools.size === 0) return undefined;
    const { command, rest } = resolved;
    return toolElsewhere(command.name, (command.positional ?? []) as string[], rest, tools);
  }

  private async fail(
    name: string,
    error: unknown,
    invocation: Invocation,
    surface: CardSurface,
    guess?: string,
  ): Promise<string> {
    const card = this.errorCard(name, error, invocation, guess);
    try {
      await surface.reply(card);
    } catch (replyError) {
      this.deps.logger.error({ err: replyError, command: name }, 'could not deliver an error reply');
    }
    return outcomeOf(error);
  }

  /**
   * Runs one handling of a command, click or form as an invocation: under the invocation already
   * running (a queue worker restored it from the job), or a fresh one — so every log line it causes,
   * here and in the queue jobs it starts, carries the id, and an internal error's reference is that id.
   * Its duration is observed by command and outcome.
   */
  private async invoked(handle: (ran: { command: string; outcome: string }) => Promise<void>): Promise<void> {
    const id = currentInvocationId() ?? newInvocationId();
    await runWithInvocation(id, async () => {
      const started = performance.now();
      const ran = { command: 'unknown', outcome: 'internal' };
      try {
        await handle(ran);
      } finally {
        commandDuration.observe(
          { command: ran.command, outcome: ran.outcome },
          (performance.now() - started) / 1000,
        );
      }
    });
  }

  /** The card shown for a failure: the error's own words, or a reference id for our own bugs. */
  errorCard(name: string, error: unknown, invocation: Invocation, guess?: string): Card {
    const platform = invocation.user.platform;
    if (error instanceof DeckhandError) {
      commandCounter.inc({ command: name, platform, outcome: outcomeOf(error) });
      const said =
        error instanceof UpstreamError ? upstreamWords(error.message) || error.message : error.message;
      const lines = [scrubSecrets(said)];
      if (guess) lines.push(guess);
      if (error instanceof UsageError && error.usage) lines.push(`Usage: ${error.usage}`);
      if (error.hint) lines.push(scrubSecrets(error.hint));
      else if (
        error instanceof UpstreamError &&
        error.status >= 400 &&
        error.status < 500 &&
        name !== 'unknown'
      ) {
        lines.push(`Nothing was changed. /help ${name} shows what it takes.`);
      }
      const status = error instanceof PermissionDenied || error instanceof UsageError ? 'warning' : 'danger';
      const text = this.formOf(invocation.conversationId).text(lines.join('\n'));
      return { text, status, visibility: 'private' };
    }
    const reference = newReferenceId();
    commandCounter.inc({ command: name, platform, outcome: 'internal' });
    this.deps.logger.error({ err: error, command: name, reference }, 'command failed');
    return {
      text: `Something went wrong on our side (reference ${reference}). Nothing more was done; please report the reference.`,
      status: 'danger',
      visibility: 'private',
    };
  }
}

/** How a command that did not fail ended, as the audit trail and the metrics count it. */
type RunOutcome = 'ok' | 'deferred' | 'pending' | 'unchanged';

/** The outcome label of a failure: the first part of its code (`upstream.404` → `upstream`), or `internal`. */
function outcomeOf(error: unknown): string {
  return error instanceof DeckhandError ? (error.code.split('.')[0] as string) : 'internal';
}

/** `platform:workspace:user`: who a form belongs to. */
function userKey(invocation: Invocation): string {
  return `${invocation.user.platform}:${invocation.user.workspace}:${invocation.user.id}`;
}
