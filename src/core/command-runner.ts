/**
 * The one way a command is run: a typed line, a structured command (a platform's options), a button
 * click or a form's answers all become a command with its arguments — the conversation's bound tool
 * filling a `<tool>` left out — which then runs under an invocation id, with every failure answered
 * by a short message (never a stack trace).
 */
import type { Logger } from 'pino';
import type { z } from 'zod';
import { currentInvocationId, newInvocationId, runWithInvocation } from '../log';
import { commandDuration } from '../metrics';
import type { SecretScrubber } from '../secrets';
import type { ActionStore, BindingStore } from './actions';
import { bindTokens, mayTakeBoundTool, validateArgs } from './bind';
import type { CardPublisher } from './card-publisher';
import type { CardSurface } from './card-surface';
import type { AnyCommand, Invocation } from './command';
import { CommandExecution, type CommandExecutionDeps } from './command-execution';
import { CommandFailures, type ResolvedLine } from './command-failure';
import type { CommandForm } from './command-form';
import type { CommandInput } from './command-job';
import { UsageError } from './errors';
import { carryLanguages, type LanguageStore, settleLanguages, startLanguages } from './languages';
import type { Policy } from './policy';
import type { CommandRegistry } from './registry';
import type { Card } from './reply';
import { type CommandRequest, clickRequest, formRequest } from './stored-input';
import { type Token, tokenize } from './tokenize';
import type { LinksSeen, LinkUnfurls, UnfurlCard } from './unfurls';

/** What the command runner needs from the application. */
export interface CommandRunnerDeps<S> extends CommandExecutionDeps<S> {
  registry: CommandRegistry<S>;
  services: S;
  actions: ActionStore;
  bindings: BindingStore;
  policy: Policy;
  /** Renders the cards commands reply with (buttons, masking, time zone, command form). */
  publisher: CardPublisher;
  logger: Logger;
  /** Registered secrets: a failed line that holds one is not echoed back. */
  secrets?: SecretScrubber;
  /** The tools Deckhand knows, to say `/logs mytool web` was meant when `/logs web mytool` fails. */
  knownTools?: () => Iterable<string>;
  /** Link unfurls: a line that is no command but holds links Deckhand knows is answered with their cards. */
  unfurls?: LinkUnfurls;
  /** The `/language` settings: every invocation's reader and conversation languages are read first. */
  languages?: LanguageStore;
}

/** One handling in progress: what it ran as, how it ended, the typed line as far as understood. */
interface Attempt<S> {
  command: string;
  outcome: string;
  line?: ResolvedLine<S>;
}

/** Runs commands, clicks and forms: parse, bind, check, confirm, run, answer failures. */
export class CommandRunner<S> {
  private readonly execution: CommandExecution<S>;
  private readonly failures: CommandFailures<S>;

  constructor(private readonly deps: CommandRunnerDeps<S>) {
    this.execution = new CommandExecution(deps);
    this.failures = new CommandFailures(deps);
  }

  /** The command registry. */
  get registry(): CommandRegistry<S> {
    return this.deps.registry;
  }

  /** How commands are written in a conversation (`/deploy`, or `/deckhand deploy` after a platform's one namespaced command). */
  formOf(conversationId: string): CommandForm {
    return this.deps.publisher.formOf(conversationId);
  }

  /**
   * Runs one input as one invocation: under the invocation already running (a queue worker restored
   * it from the job), or a fresh one — so every log line it causes, here and in the queue jobs it
   * starts, carries the id, and an internal error's reference is that id. Its duration is observed
   * by command and outcome.
   */
  async run(input: CommandInput, invocation: Invocation, surface: CardSurface): Promise<void> {
    const id = currentInvocationId() ?? newInvocationId();
    await runWithInvocation(id, async () => {
      invocation = startLanguages(invocation, this.deps.languages);
      if (input.kind === 'text' && (await this.answeredWithLinks(input.text, invocation, surface))) return;
      const started = performance.now();
      const named = input.kind === 'action' || input.kind === 'form' ? input.kind : 'unknown';
      const attempt: Attempt<S> = { command: named, outcome: 'internal' };
      try {
        attempt.outcome = await this.attempt(input, invocation, surface, attempt);
      } finally {
        const labels = { command: attempt.command, outcome: attempt.outcome };
        commandDuration.observe(labels, (performance.now() - started) / 1000);
      }
    });
  }

  /** Handles a text command line such as `/deploy mytool --force-build`. */
  handleText(text: string, invocation: Invocation, surface: CardSurface): Promise<void> {
    return this.run({ kind: 'text', text }, invocation, surface);
  }

  /** Handles a command given as a name and an argument object (a platform's options, forms). */
  handleStructured(
    command: string,
    args: Record<string, unknown>,
    invocation: Invocation,
    surface: CardSurface,
  ): Promise<void> {
    return this.run({ kind: 'structured', command, args }, invocation, surface);
  }

  /** Handles a button click by its short action id; rights are checked for the person who clicked. */
  handleAction(actionId: string, invocation: Invocation, surface: CardSurface): Promise<void> {
    return this.run({ kind: 'action', actionId }, invocation, surface);
  }

  /**
   * Handles the answers of a form: runs its command with the form's fixed arguments plus the
   * answers, as a private invocation of the person who submitted it (who must be the one it was
   * opened for). Forms are single use.
   */
  handleForm(
    formId: string,
    values: Record<string, string>,
    invocation: Invocation,
    surface: CardSurface,
  ): Promise<void> {
    return this.run({ kind: 'form', formId, values }, invocation, surface);
  }

  /** The cards of links someone posted, each not shown in the conversation within the window. */
  unfurl(seen: LinksSeen): Promise<UnfurlCard[]> {
    if (!this.deps.unfurls) return Promise.resolve([]);
    return this.deps.unfurls.cards(seen, (line, invocation, surface) =>
      this.handleText(line, invocation, surface),
    );
  }

  /**
   * A line whose first word names no command but which holds links Deckhand knows (the bot
   * mentioned with a link): their cards are the answer. True when it was answered so.
   */
  private async answeredWithLinks(
    text: string,
    invocation: Invocation,
    surface: CardSurface,
  ): Promise<boolean> {
    if (!this.deps.unfurls || this.deps.unfurls.recognise([text]).length === 0) return false;
    const first = text.trim().split(/\s/, 1)[0] ?? '';
    const group = first.toLowerCase().replace(/^\//, '').replace(/@\w+$/, '');
    if (group && this.deps.registry.group(group).length > 0) return false;
    for (const { card } of await this.unfurl({ texts: [text], invocation })) await surface.reply(card);
    return true;
  }

  /** The card shown for a failure: the error's own words, or a reference id for our own bugs. */
  errorCard(name: string, error: unknown, invocation: Invocation, guess?: string): Card {
    return this.failures.card(name, error, invocation, guess);
  }

  /** Runs the input, answering its failure; resolves with the outcome it counts as. */
  private async attempt(
    input: CommandInput,
    invocation: Invocation,
    surface: CardSurface,
    attempt: Attempt<S>,
  ): Promise<string> {
    try {
      const request = await this.requestOf(input, invocation, surface, attempt);
      if (!request) return 'dismissed';
      carryLanguages(invocation, request.invocation);
      attempt.command = request.command.name;
      const { command, args, confirmation } = request;
      return await this.execution.execute(command, args, request.invocation, surface, confirmation);
    } catch (error) {
      await settleLanguages(invocation);
      if (input.kind !== 'text') return this.failures.answer(attempt.command, error, invocation, surface);
      const line = { text: input.text, resolved: attempt.line };
      return this.failures.answerLine(attempt.command, error, line, invocation, surface);
    }
  }

  /** The command an input asks for, with its arguments; undefined when a Cancel was handled. */
  private async requestOf(
    input: CommandInput,
    invocation: Invocation,
    surface: CardSurface,
    attempt: Attempt<S>,
  ): Promise<CommandRequest<S> | undefined> {
    switch (input.kind) {
      case 'text': {
        const line = this.deps.registry.resolve(tokenize(input.text.trim()));
        attempt.line = line;
        attempt.command = line.command.name;
        const args = await this.boundArgs(line.command, { tokens: line.rest }, invocation);
        return { command: line.command, args, invocation };
      }
      case 'structured': {
        const command = this.deps.registry.get(input.command);
        if (!command) {
          const typed = input.command;
          throw UsageError.inWords((say) => ({
            message: say.t('command-unknown', typed),
            hint: say.t('command-try-help'),
          }));
        }
        attempt.command = command.name;
        const args = await this.boundArgs(command, { args: input.args }, invocation);
        return { command, args, invocation };
      }
      case 'action':
        return clickRequest(this.deps, input.actionId, invocation, surface, attempt);
      case 'form':
        return formRequest(this.deps, input.formId, input.values, invocation, attempt);
    }
  }

  /**
   * The command's arguments, from typed words or an argument object. The bound-tool rule: a
   * `<tool>` left out is the tool the conversation is bound to (`/tool bind`); the binding is read
   * only when it could fill one (one Redis round trip less otherwise).
   */
  private async boundArgs(
    command: AnyCommand<S>,
    given: { tokens: Token[] } | { args: Record<string, unknown> },
    invocation: Invocation,
  ): Promise<Record<string, unknown>> {
    const unknownCommand = command as AnyCommand<unknown>;
    const couldFill =
      'tokens' in given
        ? mayTakeBoundTool(unknownCommand, given.tokens)
        : 'tool' in (command.args as z.ZodObject).shape && given.args.tool === undefined;
    const boundTool = couldFill ? await this.deps.bindings.get(invocation.conversationId) : undefined;
    if ('tokens' in given) return bindTokens(unknownCommand, given.tokens, boundTool ? { boundTool } : {});
    return validateArgs(unknownCommand, boundTool ? { ...given.args, tool: boundTool } : given.args);
  }
}
