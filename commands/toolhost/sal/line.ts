/**
 * The Server Admin Log line of one change, in the form stashbot (wikimedia/labs-tools-stashbot) logs:
 * `!log tools.<tool> <who> <what> (<link>)`, said in a channel where stashbot reads the project from
 * the message (`#wikimedia-cloud-feed`, `stashbot/sal.py` `Logger.log`). A tool's SAL project is its
 * service group, `tools.<tool>` (`Logger._get_projects`). stashbot sets no length of its own; the line
 * must reach it whole as one chat line, so it is cut (whole characters) to what the relayed line
 * leaves of the 512 bytes a line may take (RFC 1459 §2.3). Untrusted text (display names, free-text
 * arguments) is made inert for the channel and for where stashbot copies the line (the SAL wiki page,
 * Phabricator comments); Phabricator task ids (`T123`) stay as they are, and ones a cut would drop
 * are kept at its end, so stashbot links them.
 */
import type { ChangeRecord } from '../../../src/core/change-record';

/** What a Toolforge tool name looks like (the `tools.<tool>` service group). */
const TOOL = /^[a-z0-9]([a-z0-9-]{0,50}[a-z0-9])?$/;

/** Task ids as stashbot finds them (`stashbot/sal.py` `RE_PHAB`). */
const TASK = /\bT\d+\b/g;

/**
 * The bytes the chat server adds when it relays a line to stashbot, besides the channel name:
 * `:nick!user@host PRIVMSG <channel> :` and CRLF, at the longest Solanum (Libera.Chat's IRCd) allows
 * (nick 16, user 10, host 63 bytes).
 */
const RELAY_OVERHEAD = 1 + 16 + 1 + 10 + 1 + 63 + ' PRIVMSG '.length + ' :'.length + 2;

/** The most bytes a SAL line for `channel` may take so that it reaches stashbot in one piece. */
export function salLineBudget(channel: string): number {
  return 512 - RELAY_OVERHEAD - Buffer.byteLength(channel, 'utf8');
}

/**
 * `text` made inert: formatting codes (colours with their digits) and every control or
 * direction-changing character removed, whitespace (newlines included) collapsed to single spaces,
 * and the characters that are markup where stashbot copies the line replaced: wiki links, templates,
 * tags and signatures (`[ ] { } | < > ~`), bold/italic quotes, and Phabricator mentions (`@`).
 * Linear in the length of `text`.
 */
export function inert(text: string): string {
  return text
    .replace(/\x03(\d{1,2}(,\d{1,2})?)?|\x04([0-9a-fA-F]{6}(,[0-9a-fA-F]{6})?)?/g, '')
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .replace(/[[{]/g, '(')
    .replace(/[\]}]/g, ')')
    .replace(/\|/g, '/')
    .replace(/</g, '‹')
    .replace(/>/g, '›')
    .replace(/~+/g, '~')
    .replace(/'{2,}/g, "'")
    .replace(/@/g, '＠')
    .trim();
}

/**
 * `text` cut to at most `bytes` UTF-8 bytes, on a character boundary and before a word the cut would
 * split (so a half task id such as `T12` of `T1234` is never left), `…` marking the cut.
 */
export function cutUtf8(text: string, bytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= bytes) return text;
  const room = bytes - Buffer.byteLength('…', 'utf8');
  let used = 0;
  let out = '';
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (used + size > room) break;
    used += size;
    out += char;
  }
  let end = out.length;
  if (/^\S/u.test(text.slice(out.length))) while (end > 0 && !/\s/u.test(out[end - 1] as string)) end -= 1;
  return `${(end > 0 ? out.slice(0, end) : out).trimEnd()}…`;
}

/**
 * What each command did, in the past tense (other commands show as `ran /<command>`). The SAL line
 * is a log record for the whole community, in the form stashbot reads: English, never translated.
 */
const DONE: Record<string, string> = {
  deploy: 'deployed',
  'deployment rollback': 'rolled back the deployment',
  'deployment delete': 'deleted a deployment',
  'build start': 'started a build',
  'build delete': 'deleted a build',
  'build clean': 'cleaned the builds',
  'jobs run': 'started the job',
  'jobs restart': 'restarted the job',
  'jobs delete': 'deleted the job',
  'jobs flush': 'deleted every job',
  'jobs load': 'loaded the jobs file',
  'webservice start': 'started the webservice',
  'webservice restart': 'restarted the webservice',
  'webservice stop': 'stopped the webservice',
  'envvars set': 'set the envvar',
  'envvars delete': 'deleted the envvar',
  'config set': 'set the components config',
  'config delete': 'deleted the components config',
  'tool lock': 'locked the tool',
  'tool unlock': 'unlocked the tool',
};

/** Free-text arguments, shown last after a colon. */
const FREE_TEXT = new Set(['description', 'reason', 'message']);

/** `forceBuild` → `force-build`. */
const flag = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** What the change did: the verb, its arguments (the tool left out), its free text, who approved it. */
export function changeWhat(record: ChangeRecord): string {
  const words: string[] = [DONE[record.command] ?? `ran /${record.command}`];
  let free = '';
  for (const [key, value] of Object.entries(record.args)) {
    if (key === 'tool' || key === 'approvedBy' || value === false || value === undefined || value === null)
      continue;
    const text = Array.isArray(value) ? value.map(String).join(' ') : String(value);
    if (FREE_TEXT.has(key)) free = text;
    else if (value === true) words.push(`--${flag(key)}`);
    else if (text !== '') words.push(`${flag(key)}=${text}`);
  }
  const approved =
    typeof record.args.approvedBy === 'string' ? ` (approved by ${record.args.approvedBy})` : '';
  return `${words.join(' ')}${free ? `: ${free}` : ''}${approved}`;
}

/** Who made the change: the display name and the platform it was typed on. */
export function changeWho(record: ChangeRecord): string {
  return `${record.name || 'someone'} (${record.platform})`;
}

/**
 * The SAL line of `record` for `channel`, linking `link`; undefined when the record names no tool a
 * Toolforge service group could be named after.
 */
export function salLine(record: ChangeRecord, channel: string, link: string): string | undefined {
  if (!record.tool || !TOOL.test(record.tool)) return undefined;
  const head = `!log tools.${record.tool} `;
  const tail = ` (${inert(link)})`;
  const body = inert(`${changeWho(record)} ${changeWhat(record)}`);
  const room = salLineBudget(channel) - Buffer.byteLength(head + tail, 'utf8');
  if (Buffer.byteLength(body, 'utf8') <= room) return head + body + tail;
  const tasks = [...new Set(body.match(TASK) ?? [])];
  let kept = cutUtf8(body, room);
  const lost = tasks.filter((task) => !new Set(kept.match(TASK) ?? []).has(task));
  if (lost.length > 0) {
    const ids = ` ${lost.join(' ')}`;
    kept = `${cutUtf8(body, room - Buffer.byteLength(ids, 'utf8'))}${ids}`;
  }
  return head + kept + tail;
}
