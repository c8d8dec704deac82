/**
 * What a line typed on IRC asks of the bot. In a channel: `!deploy mytool` (the prefix and a command
 * group Deckhand has), `!deckhand deploy mytool` (the prefix and the bot's nick), or addressed
 * `deckhand: deploy mytool`; in a private query every line is for the bot, prefix or not. A button is
 * pressed with `!press 2` or `!2` (`press 2` or `2` in a private query).
 */

/** The parsed line. */
export type IrcLine =
  | { kind: 'command'; text: string }
  | { kind: 'press'; number: number }
  | { kind: 'none' };

/** What parsing needs to know. */
export interface LineContext {
  /** The bot's current nick. */
  nick: string;
  /** The command prefix (`!`). */
  prefix: string;
  /** A private query (every line is for the bot). */
  isPrivate: boolean;
  /** Deckhand's command groups (`deploy`, `tool`, …), lower case. */
  groups: ReadonlySet<string>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function pressOf(rest: string): IrcLine | undefined {
  const match = /^(?:press\s+)?(\d{1,6})$/i.exec(rest);
  return match ? { kind: 'press', number: Number(match[1]) } : undefined;
}

/** Parses one line (formatting codes already stripped). */
export function parseIrcLine(line: string, context: LineContext): IrcLine {
  const text = line.trim();
  const addressed = new RegExp(`^${escapeRegExp(context.nick)}[:,]\\s*(.*)$`, 'i').exec(text);
  let rest: string;
  let explicit = context.isPrivate;
  if (addressed) {
    rest = (addressed[1] ?? '').trim();
    if (rest.startsWith(context.prefix)) rest = rest.slice(context.prefix.length);
    explicit = true;
  } else if (text.startsWith(context.prefix)) {
    rest = text.slice(context.prefix.length).trim();
    const first = rest.split(/\s+/, 1)[0] ?? '';
    if (first.toLowerCase() === context.nick.toLowerCase()) {
      rest = rest.slice(first.length).trim();
      explicit = true;
    }
  } else if (context.isPrivate) {
    rest = text.startsWith('/') ? text.slice(1) : text;
  } else return { kind: 'none' };
  rest = rest.replace(/^\//, '').trim();
  const press = pressOf(rest);
  if (press) return press;
  if (!rest) return explicit ? { kind: 'command', text: '/help' } : { kind: 'none' };
  const group = (rest.split(/\s+/, 1)[0] ?? '').toLowerCase();
  // `!foo` for a group Deckhand lacks is probably another bot's command: stay quiet unless addressed.
  if (!explicit && !context.groups.has(group)) return { kind: 'none' };
  return { kind: 'command', text: `/${rest}` };
}
