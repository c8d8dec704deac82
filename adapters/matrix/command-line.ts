/**
 * What a line typed in a Matrix room asks of the bot. Commands start with the prefix (`!` by
 * default): `!deploy mytool`, or addressed to the bot by name, `!deckhand deploy mytool`. A button is
 * pressed with `!press 2`, `!2`, or by reacting with the number. A line addressed to the bot the way
 * clients write a mention (`deckhand: deploy mytool`, `@deckhand:example.org: deploy mytool`) is a
 * command too. In a direct room the prefix may be left out. A line for another bot (`!ban`, a word that is no command here) is none of these.
 */

/** What a line means. */
export type Line =
  | { kind: 'command'; text: string }
  | { kind: 'press'; number: number }
  | { kind: 'cancel' }
  | { kind: 'none' };

/** Longest line read (a command line is short; a pasted wall of text is cut before it is parsed). */
const MAX_LINE = 4000;

/** The text of a message without the quoted fallback of the message it answers (`> …` lines). */
export function withoutReplyFallback(body: string): string {
  if (!body.startsWith('> ')) return body;
  const end = body.indexOf('\n\n');
  return end < 0 ? '' : body.slice(end + 2);
}

/** What the parser needs to know. */
export interface LineContext {
  prefix: string;
  /** Names the bot answers to after the prefix (`deckhand`, its user id's localpart). */
  names: readonly string[];
  /** The command groups of the registry (`deploy`, `tool`, …). */
  groups: ReadonlySet<string>;
  /** A direct room: the prefix is optional. */
  direct: boolean;
}

/** Parses one line (see the module comment). */
export function parseLine(raw: string, context: LineContext): Line {
  const line = raw.slice(0, MAX_LINE).trim();
  let rest: string;
  let addressed = false;
  const mention = /^@?([^\s:,]+)(?::[A-Za-z0-9.-]+(?::\d+)?)?[:,]\s+/.exec(line);
  if (mention && context.names.includes((mention[1] as string).toLowerCase())) {
    rest = line.slice(mention[0].length);
    if (rest.startsWith(context.prefix)) rest = rest.slice(context.prefix.length);
    addressed = true;
  } else if (line.startsWith(context.prefix)) rest = line.slice(context.prefix.length).trimStart();
  else if (context.direct) rest = line.startsWith('/') ? line.slice(1) : line;
  else return { kind: 'none' };
  const first = /^\S+/.exec(rest)?.[0] ?? '';
  if (context.names.includes(first.toLowerCase())) {
    addressed = true;
    rest = rest.slice(first.length).trimStart();
  }
  const press = /^(?:press\s+)?(\d{1,2})$/i.exec(rest);
  if (press) return { kind: 'press', number: Number(press[1]) };
  const word = (/^\S+/.exec(rest)?.[0] ?? '').toLowerCase();
  if (word === 'cancel' && rest.trim().toLowerCase() === 'cancel') return { kind: 'cancel' };
  if (!word) return addressed ? { kind: 'command', text: '/help' } : { kind: 'none' };
  if (!addressed && !context.direct && !context.groups.has(word)) return { kind: 'none' };
  if (!addressed && context.direct && !line.startsWith(context.prefix) && !context.groups.has(word))
    return { kind: 'none' };
  return { kind: 'command', text: `/${rest}` };
}
