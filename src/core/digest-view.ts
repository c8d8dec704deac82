/**
 * The one renderer of scheduled digests (the calendar's upcoming events, a tool's past period): a
 * title, sections of lines, and a footer naming the schedule and how to stop it.
 */
import { type Translator, translator } from '../i18n/translate';
import type { ActionRequest, CardField, DraftCard } from './reply';

/** What {@link digestWords} reads of a digest's schedule. */
export interface DigestWhen {
  every: 'daily' | 'weekly';
  at: string;
  weekday: number;
  timezone: string;
}

/** A weekday's name in the reader's language (0 is Sunday). */
export function weekdayName(say: Translator, weekday: number): string {
  // 4 January 2026 was a Sunday.
  return new Intl.DateTimeFormat(say.language, { weekday: 'long', timeZone: 'UTC' }).format(
    Date.UTC(2026, 0, 4 + weekday),
  );
}

/** `daily digest at 09:00 (Europe/Berlin)`, `weekly digest on Mondays at 09:00 (UTC)`, in `say`'s language. */
export function digestWords(say: Translator, when: DigestWhen): string {
  return when.every === 'weekly'
    ? say.t('subscribe-digest-weekly', weekdayName(say, when.weekday), when.at, when.timezone)
    : say.t('subscribe-digest-daily', when.at, when.timezone);
}

/** One section of a digest: a heading and its lines (each a label and a value). */
export interface DigestSection {
  heading: string;
  lines: CardField[];
}

/** What a digest shows. */
export interface DigestContent {
  title: string;
  sections: DigestSection[];
  when: DigestWhen;
  /** How to stop it (`/calendar digest --off`). */
  stop: string;
  /** Said before the schedule in the footer (`and 3 more · times in Europe/Berlin`). */
  note?: string;
  actions?: ActionRequest[];
}

/**
 * The digest card, or undefined when every section is empty: an empty period posts nothing, so a
 * quiet tool or an empty calendar does not add a message a day to the conversation.
 */
export function digestCard(
  content: DigestContent,
  say: Translator = translator('en'),
): DraftCard | undefined {
  const sections = content.sections.filter((s) => s.lines.length > 0);
  if (sections.length === 0) return undefined;
  const single = sections.length === 1 && content.sections.length === 1;
  const fields = single
    ? (sections[0] as DigestSection).lines
    : sections.flatMap((s) => [{ label: s.heading, value: `${s.lines.length}` }, ...s.lines]);
  return {
    title: content.title,
    status: 'info',
    fields,
    ...(content.actions ? { actions: content.actions } : {}),
    footer: `${content.note ? `${content.note} · ` : ''}${say.t('queue-digest-footer', digestWords(say, content.when), content.stop)}`,
  };
}
