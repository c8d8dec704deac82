/** Running one command whose arguments are known: permission, the confirmation of destructive ones
 * (asked, then checked again at Confirm), approvals, the run and its helpers, log, metrics, audit. */
import type { Logger } from 'pino';
import { commandCounter } from '../metrics';
import type { ActionStore, StoredAction } from './actions';
import type { ApprovalGate } from './approval-gate';
import type { CardPublisher } from './card-publisher';
import type { CardSurface } from './card-surface';
import { ChangeLockedError } from './change-guard';
import {
  type AnyCommand,
  type ChatUser,
  type CommandContext,
  formOwnerKey,
  type Invocation,
  loggedArgs,
} from './command';
import { type AuditEntry, type Audited, auditEntryOf } from './command-audit';
import { askedRun, checkTarget, targetMoved } from './command-target';
import { askConfirmation } from './confirm-question';
import { claimEarly, type EarlyClaim, type EffectLedger, runRecorded } from './effects';
import { DeckhandError } from './errors';
import { inLanguageOf, replyLanguage, settleLanguages, translators } from './languages';
import type { PlatformWordsOf } from './platform-words';
import type { Policy } from './policy';
import type { DraftCard } from './reply';
import { fingerprint } from './target';

/** A click on a Confirm button: what was confirmed, as the question named it (`approval`: an Approve press's request id). */
export interface Confirmation {
  target: StoredAction['target'];
  approval?: string;
}

/** How a command that did not fail ended, as the audit trail and the metrics count it. */
export type RunOutcome = 'ok' | 'deferred' | 'pending' | 'unchanged';

export type { AuditEntry } from './command-audit';

/** What running a command needs from the application. */
export interface CommandExecutionDeps<S> {
  services: S;
  actions: ActionStore;
  policy: Policy;
  publisher: CardPublisher;
  logger: Logger;
  /** Runs `work` alone for `resource` across every process (a Redis lock): confirmed destructive
   * commands on one target run one at a time, the later ones then find the target changed. */
  exclusive?: <T>(resource: string, work: () => Promise<T>) => Promise<T>;
  /** The effect records of side-effect commands run for a platform delivery (see `effects.ts`). */
  effects?: EffectLedger;
  /** Called after every side-effect command run or refusal (the audit trail). */
  audit?: (entry: AuditEntry) => Promise<void>;
  /** Hands a write to the queued job running this command, which awaits it before it ends (false: none). */
  deferWrite?: (write: Promise<unknown>) => boolean;
  /** The linked cross-platform identity of a chat user, which the audit records. */
  identityOf?: (user: ChatUser) => Promise<string | undefined>;
  /** Protected commands wait for a second maintainer's approval (`/tool protect`). */
  approvals?: ApprovalGate;
  /** Each platform's words for commands (from the table of platforms). */
  platformWords?: PlatformWordsOf;
}

/** Runs commands with known arguments: permission, confirmation, run, metrics, audit. */
export class CommandExecution<S> {
  constructor(private readonly deps: CommandExecutionDeps<S>) {}

  /** The command as it would run (its target bound), in the reader's platform's words. */
  private asked(command: AnyCommand<S>, args: Record<string, unknown>, invocation: Invocation, tool = '') {
    const here = this.deps.platformWords?.(invocation.user.platform);
    return askedRun(this.deps.services, command, args, invocation, tool, here);
  }

  /**
   * Runs `command` (or asks to confirm it first; resolves `confirm` then) and audits a side-effect
   * command's outcome, a refusal included. Failures are thrown for the caller to answer.
   */
  async execute(
    command: AnyCommand<S>,
    args: Record<string, unknown>,
    invocation: Invocation,
    surface: CardSurface,
    confirmation: Confirmation | undefined,
  ): Promise<RunOutcome | 'confirm' | 'approval'> {
    let outcome: string = 'ok';
    const audited: Audited = { invocation };
    try {
      const ran = await this.checkedRun(command, args, audited, surface, confirmation);
      outcome = ran;
      return ran;
    } catch (error) {
      outcome = error instanceof DeckhandError ? error.code : 'internal';
      throw error;
    } finally {
      const entry = command.sideEffect ? auditEntryOf(command, args, audited, outcome) : undefined;
      if (entry && this.deps.audit) {
        const audit = this.deps
          .audit(entry)
          .catch((error) => this.deps.logger.error({ err: error, command: command.name }, 'audit failed'));
        if (!this.deps.deferWrite?.(audit)) await audit;
      }
      await audited.outcomeWritten;
    }
  }

  private async checkedRun(
    command: AnyCommand<S>,
    args: Record<string, unknown>,
    audited: Audited,
    surface: CardSurface,
    confirmation: Confirmation | undefined,
  ): Promise<RunOutcome | 'confirm' | 'approval'> {
    const invocation = audited.invocation;
    const tool = typeof args.tool === 'string' ? args.tool : undefined;
    const gate = this.deps.approvals;
    if (gate && tool && confirmation?.approval !== undefined) {
      await settleLanguages(invocation);
      return gate.approve(confirmation.approval, invocation, surface, {
        changed: () => targetMoved(this.deps.services, command, args, invocation, confirmation.target),
        askAgain: async (requester) =>
          gate.ask(await this.asked(command, args, requester, tool), requester, surface),
        run: async (requester, approvedBy, record) => {
          Object.assign(audited, { invocation: requester, approvedBy });
          await this.deps.policy.check(requester.user, command.permission, tool, command.name, {
            overridden: record.override === true,
          });
          return this.runCommand(command, args, requester, surface, tool, audited);
        },
      });
    }
    const asks = command.confirm !== undefined && (command.confirmWhen?.(args as never) ?? true);
    // The approval policy is read, a command run at once claims its effect record and starts its reads
    // ahead, and the identity its audit records is read, alongside the access check (one round trip
    // for all); all are used only after it, the claim taken back on a refusal.
    const policyRead = gate && tool && command.sideEffect ? gate.protection(tool, command.name) : undefined;
    policyRead?.catch(() => undefined);
    const claim = asks ? undefined : claimEarly(command, invocation.key, this.deps.effects);
    if (!asks) command.readAhead?.({ args, invocation, services: this.deps.services });
    if (!asks && command.sideEffect && this.deps.audit && this.deps.identityOf) {
      audited.identity = this.deps.identityOf(invocation.user).catch(() => undefined);
    }
    const refusal = await this.deps.policy
      .check(invocation.user, command.permission, tool, command.name)
      .then(
        () => undefined,
        (error: unknown) => error ?? new Error('refused'),
      );
    // Read with the checks above (see `startLanguages`): needed from here on, by every answer.
    await settleLanguages(invocation);
    if (refusal) await claim?.withdraw();
    const protection = refusal ? await policyRead?.catch(() => undefined) : await policyRead;
    if (refusal) {
      // `--override` during a lock or freeze: asked as an approval by another maintainer instead.
      if (!(refusal instanceof ChangeLockedError && args.override === true && gate && tool)) throw refusal;
      const asked = await this.asked(command, args, invocation, tool);
      const { say } = translators(invocation);
      const despite = refusal.reason ? say.t('approval-despite', refusal.reason(say)) : refusal.message;
      const question = `${asked.question}\n${despite}`;
      await gate.ask(
        { ...asked, question },
        invocation,
        surface,
        Math.max(1, protection?.approvers ?? 1),
        true,
      );
      return 'approval';
    }
    if (gate && tool && protection) {
      await claim?.withdraw();
      const asked = await this.asked(command, args, invocation, tool);
      await gate.ask(asked, invocation, surface, protection.approvers);
      commandCounter.inc({ command: command.name, platform: invocation.user.platform, outcome: 'approval' });
      return 'approval';
    }
    if (asks && !confirmation) {
      await askConfirmation(
        this.deps.publisher,
        await this.asked(command, args, invocation),
        command,
        invocation,
        surface,
      );
      commandCounter.inc({ command: command.name, platform: invocation.user.platform, outcome: 'confirm' });
      return 'confirm';
    }
    if (asks && confirmation) {
      const exclusive = this.deps.exclusive;
      const checkAndRun = async () => {
        await checkTarget(this.deps.services, command, args, invocation, confirmation.target);
        return this.runCommand(command, args, invocation, surface, tool, audited);
      };
      const resource = `confirmed:${command.name}:${fingerprint(args)}`;
      return exclusive ? exclusive(resource, checkAndRun) : checkAndRun();
    }
    return this.runCommand(command, args, invocation, surface, tool, audited, claim, (written) => {
      audited.outcomeWritten = written;
    });
  }

  private async runCommand(
    command: AnyCommand<S>,
    args: Record<string, unknown>,
    invocation: Invocation,
    surface: CardSurface,
    tool: string | undefined,
    audited?: Audited,
    claim?: EarlyClaim,
    outcomeWritten?: (written: Promise<void>) => void,
  ): Promise<RunOutcome> {
    const publisher = this.deps.publisher;
    const about = (draft: DraftCard): DraftCard =>
      inLanguageOf(invocation, tool && draft.tool === undefined ? { ...draft, tool } : draft);
    const reply = async (draft: DraftCard) => {
      const handle = await surface.reply(await publisher.render(about(draft), invocation.conversationId));
      if (audited && handle && !audited.card) audited.card = handle;
      return handle;
    };
    const context: CommandContext<Record<string, unknown>, S> = {
      args,
      invocation,
      services: this.deps.services,
      reply,
      here: this.deps.platformWords?.(invocation.user.platform),
      ...translators(invocation),
      update: async (handle, draft) =>
        surface.update(handle, await publisher.render(about(draft), invocation.conversationId)),
      openForm: async (form) => {
        if (!surface.openForm) return false;
        const formId = await this.deps.actions.saveForm({
          ...form,
          conversationId: invocation.conversationId,
          userKey: formOwnerKey(invocation),
          expiresAt: Date.now() + 10 * 60_000,
        });
        const locale = form.locale ?? replyLanguage(invocation, 'private');
        return (await surface.openForm(formId, { ...form, locale })) !== false;
      },
    };
    const { id: user, platform } = invocation.user;
    const logged = { command: command.name, user, platform, args: loggedArgs(command, args) };
    this.deps.logger.info(logged, 'command');
    const result = await runRecorded(command, context, this.deps.effects, reply, claim, outcomeWritten);
    // A command waiting for the user (e.g. to link an account) has not done its work: it is audited
    // as deferred; its replay is audited with its own outcome when it runs. One that stored nothing
    // yet is pending, and one that only showed something is not audited at all.
    const outcome: RunOutcome = result?.deferred ? 'deferred' : (result?.audit ?? 'ok');
    commandCounter.inc({ command: command.name, platform: invocation.user.platform, outcome });
    return outcome;
  }
}
