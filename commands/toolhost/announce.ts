import { claimAction } from '../../src/core/failure-card';
import { scopeOf } from '../../src/core/failure-claim';
import type { ActionRequest, CardField, CardStatus, DraftCard } from '../../src/core/reply';
import type { Outcome, WatchEvent } from '../../src/core/watch';
import { type Translator, translator } from '../../src/i18n/translate';

/** An announcement in the conversation's language: its translator, and the kind's own words where it has them. */
export interface AnnouncementWords {
  say?: Translator;
  /** What changed, in the language (`deployment`). */
  noun?: string;
  /** The line of detail, in the language. */
  detail?: string;
  /** The footer, in the language. */
  footer?: string;
  /** A state the kind reports (`successful`), in the language; the platform's word when not given. */
  state?: (state: string) => string;
}

const STATUS: Record<Outcome, CardStatus> = { success: 'success', failure: 'danger', cancelled: 'warning' };

/**
 * The announcement of a state change in a subscribed conversation: `mytool: deployment failed`, the
 * detail, and a button to see the whole thing. A failure's card also shows its exit code, restarts
 * and last log lines, the `remedies` (Restart, Logs, Roll back) and I'm on it.
 */
export function announcement(
  event: WatchEvent,
  noun: string,
  show: ActionRequest,
  remedies: readonly ActionRequest[] = [],
  words: AnnouncementWords = {},
): DraftCard {
  const say = words.say ?? translator('en');
  const status: CardStatus = event.outcome ? STATUS[event.outcome] : 'progress';
  const state = words.state ?? ((value: string) => value);
  const from = event.from === 'unknown' ? '' : ` ${say.t('announce-was', state(event.from))}`;
  const detail = words.detail ?? event.detail;
  const card: DraftCard = {
    title: say.t('announce-title', event.tool, words.noun ?? noun, state(event.to)),
    text: `${detail || say.t('announce-now', words.noun ?? noun, event.id, state(event.to))}${from}`,
    status,
    actions: [show],
    footer: words.footer ?? `${noun} ${event.id}`,
    locale: say.language,
  };
  if (event.outcome !== 'failure') return card;
  const facts = event.failure ?? {};
  const fields: CardField[] = [];
  if (facts.exitCode !== undefined)
    fields.push({ label: say.t('announce-field-exit-code'), value: String(facts.exitCode), inline: true });
  if (facts.restarts !== undefined)
    fields.push({ label: say.t('announce-field-restarts'), value: say.number(facts.restarts), inline: true });
  const scope = scopeOf(event);
  return {
    ...card,
    tool: event.tool,
    ...(fields.length ? { fields } : {}),
    ...(facts.lines?.length ? { code: { text: facts.lines.join('\n') } } : {}),
    actions: [...remedies, show, ...(scope ? [claimAction(scope, say)] : [])],
  };
}

/**
 * The card a watch leaves when Deckhand stops following a resource: its last card (else
 * `fallback`), saying why and which command shows where the resource is. English by default: the
 * watch gives `reason` in English.
 */
export function stoppedFollowing(
  lastCard: DraftCard | undefined,
  fallback: DraftCard,
  what: string,
  reason: string,
  check: string,
  say: Translator = translator('en'),
): DraftCard {
  return {
    ...(lastCard ?? fallback),
    status: 'warning',
    text: say.t('announce-stopped-following', what, reason, check),
  };
}
