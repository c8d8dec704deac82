/**
 * The one renderer of scheduled digests (the calendar's upcoming events, a tool's past period): a
 * title, sections of lines, and a footer naming the schedule and how to stop it.
 */
import { type Translator, translator } from '../i18n/translate';
import type { ActionRequest, CardField, DraftCard } from './reply';

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** What {@link describeDigest} reads of a digest's schedule. */
export interface DigestWhen {
  every: 'daily' | 'weekly';
  at: string;
  weekday: number;
  timezone: string;
}

/** `daily digest at 09:00 (Europe/Berlin)`, `weekly digest on Mondays at 09:00 (UTC)`. */
export function describeDigest(when: DigestWhen): string {
  const day = when.every === 'weekly' ? ` on ${WEEKDAY_NAMES[when.weekday]}s` : '';
  return `${when.every} digest${day} at ${when.at} (${when.timezone})`;
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
    footer: `${content.note ? `${content.note} · ` : ''}${say.t('queue-digest-footer', describeDigest(content.when), content.stop)}`,
  };
}
