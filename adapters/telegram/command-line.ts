/**
 * Reading a Telegram message as a Deckhand command line: `/deploy mytool`, `/deploy@deckhand_bot
 * mytool` in groups, commands in the caption of a file. Telegram command names are `[a-z0-9_]`, so a
 * group name with a dash is offered with an underscore and mapped back here.
 */

/** What a message says to the bot. */
export type CommandLine =
  /** Not a command. */
  | { kind: 'none' }
  /** A command for another bot (`/deploy@other_bot`). */
  | { kind: 'other-bot' }
  /** A command for this bot; `addressed` when it named the bot (`@deckhand_bot`). */
  | { kind: 'command'; name: string; rest: string; addressed: boolean };

/** The Telegram command name of a registry group (`tool-bind` → `tool_bind`). */
export function telegramCommandName(group: string): string {
  return group.toLowerCase().replaceAll('-', '_');
}

/**
 * Parses `text` as a command for the bot named `botUsername`. Long dashes that phone keyboards put
 * in place of `--` before a flag are turned back into `--`.
 */
export function parseCommandLine(text: string, botUsername: string): CommandLine {
  const match = /^\/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{3,64}))?(?=\s|$)/.exec(text);
  if (!match) return mentionLine(text, botUsername);
  const target = match[2];
  if (target && target.toLowerCase() !== botUsername.toLowerCase()) return { kind: 'other-bot' };
  const rest = text
    .slice(match[0].length)
    .trim()
    .replace(/(^|\s)[—–](?=[a-z])/g, '$1--');
  return { kind: 'command', name: (match[1] as string).toLowerCase(), rest, addressed: target !== undefined };
}

/**
 * A message that starts by mentioning the bot (`@deckhand_bot https://mytool.toolforge.org`): the
 * words after the mention, addressed to the bot (the core answers links it knows with their cards).
 */
function mentionLine(text: string, botUsername: string): CommandLine {
  const mention = /^@([A-Za-z0-9_]{3,64})\s+(\S+)\s*/.exec(text.slice(0, 4096));
  if (!mention || (mention[1] as string).toLowerCase() !== botUsername.toLowerCase()) return { kind: 'none' };
  const rest = text.slice(mention[0].length).trim();
  return { kind: 'command', name: mention[2] as string, rest, addressed: true };
}
