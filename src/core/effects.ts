/**
 * Effect records: every command with `sideEffect: true` that runs for a platform delivery claims a
 * record keyed by the delivery before it runs (with the attempt's start time) and writes its outcome
 * after. A second attempt of the same delivery (a worker died mid-command and the queue ran it again)
 * finds the claim without an outcome and does not simply run again: the command's {@link EffectRules}
 * recognise the first attempt's work where the platform lets them tell, and otherwise the user is told
 * in words that it may already have run and how to check.
 */
import { type Translator, translator } from '../i18n/translate';
import type { AnyCommand, CommandContext } from './command';
import type { DraftCard } from './reply';

/** What a claim found. */
export type EffectState =
  /** The first attempt: run. */
  | { kind: 'fresh' }
  /** An earlier attempt started at `since` (ms) and never wrote its outcome. */
  | { kind: 'interrupted'; since: number }
  /** An earlier attempt ran to its end (its answer was posted, or is being posted). */
  | { kind: 'finished'; outcome: string };

/** Where effect records are kept (Redis, `src/coordination/effect-records.ts`): one call before, one after. */
export interface EffectLedger {
  /** Claims the record of a delivery (the first claim's time is kept) and tells what it found. */
  claim(key: string, now?: number): Promise<EffectState>;
  /** Writes the outcome of the attempt. */
  finish(key: string, outcome: string): Promise<void>;
  /** Removes a record that has no outcome: a claim whose command was refused before it ran. */
  withdraw(key: string): Promise<void>;
}

/**
 * A claim made alongside the checks that may still refuse the run (access, change guard, approval
 * policy), so it shares their round trip; {@link EarlyClaim.withdraw} takes it back when they refuse.
 */
export interface EarlyClaim {
  /** What the claim found. */
  state: Promise<EffectState>;
  /** Takes back a fresh claim (the command was not run); an earlier attempt's claim is left as it is. */
  withdraw(): Promise<void>;
}

/** Claims the record of a side-effect command's delivery now, before its checks (undefined when none is kept). */
export function claimEarly<S>(
  command: AnyCommand<S>,
  key: string | undefined,
  ledger: EffectLedger | undefined,
): EarlyClaim | undefined {
  if (!command.sideEffect || !ledger || !key) return undefined;
  const state = ledger.claim(key);
  state.catch(() => undefined);
  return {
    state,
    async withdraw() {
      // Left in place when it cannot be taken back: a later run of this delivery then says it may have run.
      const found = await state.catch(() => undefined);
      if (found?.kind === 'fresh') await ledger.withdraw(key).catch(() => undefined);
    },
  };
}

/** What {@link EffectRules.recover} decides after an interrupted attempt. */
export type Recovery =
  /** Run: nothing was done, or `run` finds the earlier work itself (see `CommandContext.interrupted`). */
  | 'run'
  /** The earlier attempt's work, found: answered with this card, nothing is run. */
  | DraftCard
  /** The platform cannot tell: the user is told it may have run. */
  | undefined;

/** How a side-effecting command deals with an interrupted earlier attempt of the same delivery. */
export interface EffectRules<A, S> {
  /** The command line that shows whether it ran (`/deployment list mytool`). */
  check(args: A): string;
  /** Looks for the earlier attempt's work (it started at `since`, ms); absent: it cannot tell. */
  recover?(ctx: CommandContext<A, S>, since: number): Promise<Recovery>;
}

/** The answer to an interrupted attempt whose work cannot be recognised. */
export function mayHaveRunCard(
  name: string,
  check: string | undefined,
  say: Translator = translator('en'),
): DraftCard {
  return {
    title: say.t('effect-interrupted-title', name),
    text: check ? say.t('effect-interrupted-check', name, check) : say.t('effect-interrupted', name),
    status: 'warning',
  };
}

/**
 * The answer to an attempt that finds an earlier one ran to its end: not audited again (the first
 * attempt's entry stands for the change).
 */
function alreadyRanCard(name: string, outcome: string, say: Translator): DraftCard {
  const text =
    outcome === 'failed' ? say.t('effect-already-ran-failed', name) : say.t('effect-already-ran', name);
  return { text, status: 'info', audit: 'unchanged' };
}

/**
 * Runs a command under its effect record and posts the card it returns with `reply`: claimed before
 * `run`, the outcome written after the reply (also when it throws), so an attempt that finds the
 * outcome knows the answer was posted. Commands without a side effect, or not run for a platform
 * delivery (no key), just run. Resolves with the card `run` returned (or the one answered instead).
 * `claimed` is a claim already made ({@link claimEarly}). Given `outcomeWritten`, the outcome's write
 * is handed to it instead of awaited (the caller awaits it before the run counts as ended).
 */
export async function runRecorded<S>(
  command: AnyCommand<S>,
  context: CommandContext<Record<string, unknown>, S>,
  ledger: EffectLedger | undefined,
  reply: (card: DraftCard) => Promise<unknown>,
  claimed?: EarlyClaim,
  outcomeWritten?: (written: Promise<void>) => void,
): Promise<DraftCard | undefined> {
  const answer = async (card: DraftCard | undefined) => {
    if (card) await reply(card);
    return card;
  };
  const key = context.invocation.key;
  const say = context.say ?? translator('en');
  if (!command.sideEffect || !ledger || !key) return answer(await command.run(context as never));
  const state = await (claimed?.state ?? ledger.claim(key));
  if (state.kind === 'finished') return answer(alreadyRanCard(command.name, state.outcome, say));
  let outcome = 'failed';
  try {
    const rules = command.effect as EffectRules<Record<string, unknown>, S> | undefined;
    let run = context;
    if (state.kind === 'interrupted') {
      const recovered = rules?.recover ? await rules.recover(context, state.since) : undefined;
      if (recovered === undefined) {
        const card = await answer(mayHaveRunCard(command.name, rules?.check(context.args), say));
        outcome = 'may-have-run';
        return card;
      }
      if (recovered !== 'run') {
        await answer(recovered);
        outcome = 'recognised';
        return recovered;
      }
      run = { ...context, interrupted: { since: state.since } };
    }
    const result = await answer(await command.run(run as never));
    outcome = result?.deferred ? 'deferred' : 'ok';
    return result;
  } finally {
    const written = ledger.finish(key, outcome);
    if (outcomeWritten) {
      written.catch(() => undefined);
      outcomeWritten(written);
    } else await written;
  }
}
