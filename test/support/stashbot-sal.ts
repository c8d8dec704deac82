/**
 * The Server Admin Log rules of stashbot (wikimedia/labs-tools-stashbot, GPL-3.0+), re-expressed to
 * check what Deckhand sends: a channel line as stashbot would take it, and what it would log. For
 * tests only; the rules below are read from stashbot's source, each citing the file and function.
 *
 * - `stashbot/bot.py` `Stashbot.on_pubmsg`: only channel messages are considered; one that starts with
 *   `!log help` (or the bot's nick) is a help request; one that starts with `!log ` (a space after it)
 *   is a SAL entry.
 * - `stashbot/es.py` `Client.event_to_doc`: before anything else, the IRC formatting codes are removed
 *   from the text (`RE_STYLE`: bold, reset, reverse, italic, underline, and colour with its digits).
 * - `stashbot/sal.py` `Logger.log`: the channel must have a SAL configuration ("Not expecting to hear
 *   !log here"); `!log ` is cut off and the rest trimmed, nothing left → "Message missing"; in
 *   `#wikimedia-cloud-feed` and `#wikimedia-cloud` the message is `<project> <message>`, split once on
 *   whitespace (Python `str.split(None, 1)`), one part → "Missing project or message? Expected !log
 *   <project> <message>"; the project must be a Cloud VPS project or a tool account's service group
 *   (`Logger._get_projects`: the `cn` of LDAP `ou=projects` and `ou=servicegroups`, where a tool's group
 *   is `tools.<tool>`), otherwise "Unknown project", with "Did you mean to say tools.<name>" when only the
 *   prefix was missing; `tools.paws`, `tools.paws-public` and `tools.quarry` are refused as deprecated.
 *   A first word `user@host` is taken as the actor only from `logmsgbot` and `wm-bot` nicks.
 * - `stashbot/sal.py` `Logger._store_in_es` (`RE_PHAB`, `\b(T\d+)\b`): every distinct Phabricator task
 *   id in the message gets a "Mentioned in SAL" comment.
 * - `stashbot/sal.py` `Logger.safe_arg`: on the wiki page, a lone `{` or `}` is wrapped in `<nowiki>`
 *   and `|` becomes `{{!}}`.
 * - Length: stashbot sets no limit of its own for the SAL (only its Mastodon copy is cut, at 500
 *   characters, `Logger._toot`); the limit is IRC's: a line the server relays is at most 512 bytes with
 *   its `:nick!user@host PRIVMSG <channel> :` prefix and CRLF (RFC 1459 §2.3), so a longer one never
 *   reaches stashbot whole.
 */

/** The channels where the project is named in the message (`Logger.log`). */
export const CLOUD_SAL_CHANNELS = ['#wikimedia-cloud-feed', '#wikimedia-cloud'] as const;

/** Tool projects stashbot refuses as deprecated (`Logger.log`). */
const DEPRECATED = new Set(['tools.paws', 'tools.paws-public', 'tools.quarry']);

/** IRC formatting codes as stashbot removes them (`es.py` `RE_STYLE`). */
const STYLE = /[\x02\x0F\x16\x1D\x1F]|\x03(\d{0,2}(,\d{0,2})?)?/g;

/** Phabricator task ids as stashbot finds them (`sal.py` `RE_PHAB`). */
const TASK = /\b(T\d+)\b/g;

/** What stashbot does with one channel line. */
export type StashbotOutcome =
  | { kind: 'logged'; project: string; message: string; nick: string; tasks: string[] }
  | { kind: 'refused'; reply: string }
  | { kind: 'help' }
  | { kind: 'ignored' };

/** One line as stashbot receives it. */
export interface StashbotLine {
  channel: string;
  /** The sender's nick and its `user@host`, as the server prefixes the line. */
  nick: string;
  userHost?: string;
  text: string;
  /** The known projects and tool service groups (LDAP), e.g. `tools.mytool`. */
  projects: ReadonlySet<string>;
  /** Channels with a SAL configuration (stashbot's config); the two cloud channels by default. */
  salChannels?: readonly string[];
}

/** The bytes the server's relay of `line` takes, prefix and CRLF included (RFC 1459 §2.3). */
export function relayedBytes(line: Pick<StashbotLine, 'channel' | 'nick' | 'userHost' | 'text'>): number {
  const prefix = `:${line.nick}!${line.userHost ?? 'deckhand@services/bot'} PRIVMSG ${line.channel} :`;
  return Buffer.byteLength(`${prefix}${line.text}\r\n`, 'utf8');
}

/** Python's `str.split(None, 1)`: leading whitespace dropped, then one split at the first whitespace run. */
function splitOnce(text: string): string[] {
  const trimmed = text.replace(/^\s+/u, '');
  if (trimmed === '') return [];
  const match = /\s+/u.exec(trimmed);
  if (!match) return [trimmed];
  const rest = trimmed.slice(match.index + match[0].length);
  return rest === '' ? [trimmed.slice(0, match.index)] : [trimmed.slice(0, match.index), rest];
}

/** What stashbot would do with `line` (see the module comment for where each rule comes from). */
export function stashbotSal(line: StashbotLine): StashbotOutcome {
  if (relayedBytes(line) > 512) return { kind: 'refused', reply: 'longer than one IRC line (512 bytes)' };
  if (/[\r\n\0]/.test(line.text))
    return { kind: 'refused', reply: 'not one IRC line (CR, LF or NUL inside)' };
  const text = line.text;
  if (text.startsWith('!log help')) return { kind: 'help' };
  if (!text.startsWith('!log ')) return { kind: 'ignored' };
  const nick = line.nick;
  if (!(line.salChannels ?? CLOUD_SAL_CHANNELS).includes(line.channel))
    return { kind: 'refused', reply: `${nick}: Not expecting to hear !log here` };
  const message = text.replace(STYLE, '').slice(5).trim();
  if (message === '') return { kind: 'refused', reply: `${nick}: Message missing. Nothing logged.` };
  const parts = splitOnce(message);
  if (parts.length < 2)
    return {
      kind: 'refused',
      reply: `${nick}: Missing project or message? Expected !log <project> <message>`,
    };
  const [project, rest] = parts as [string, string];
  if (!line.projects.has(project)) {
    const hint = line.projects.has(`tools.${project}`)
      ? ` Did you mean to say "tools.${project}" instead?`
      : '';
    return { kind: 'refused', reply: `${nick}: Unknown project "${project}"${hint}` };
  }
  if (DEPRECATED.has(project))
    return { kind: 'refused', reply: `${nick}: SAL for "${project}" is deprecated.` };
  const tasks = [...new Set([...rest.matchAll(TASK)].map((m) => m[1] as string))];
  return { kind: 'logged', project, message: rest, nick, tasks };
}

/** The message as stashbot writes it into the wiki's `{{SAL entry}}` template (`Logger.safe_arg`). */
export function wikiSafe(text: string): string {
  return text
    .replace(/(?<!\{)\{(?!\{)/g, '<nowiki>{</nowiki>')
    .replace(/(?<!\})\}(?!\})/g, '<nowiki>}</nowiki>')
    .replaceAll('|', '{{!}}');
}

/**
 * What stashbot logs of `text`, said by the nick `deckhand` in `channel` (the cloud feed unless
 * given) where `projects` are known; throws, naming the line and the outcome, when it would not log it.
 */
export function loggedBySal(
  text: string,
  projects: readonly string[],
  channel: string = CLOUD_SAL_CHANNELS[0],
): Extract<StashbotOutcome, { kind: 'logged' }> {
  const out = stashbotSal({ channel, nick: 'deckhand', text, projects: new Set(projects) });
  if (out.kind !== 'logged')
    throw new Error(`stashbot would not log ${JSON.stringify(text)}: ${JSON.stringify(out)}`);
  return out;
}
