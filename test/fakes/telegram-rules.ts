/**
 * The Bot API's documented limits that the OpenAPI description cannot express (string lengths after
 * entity parsing, callback_data bytes, command names, webhook URLs). Each check returns the error
 * description the real Bot API answers with, so the fake refuses what Telegram would refuse.
 */
import { HtmlParseError, type ParsedHtml, parseTelegramHtml } from './telegram-html';

/**
 * A Bot API error: HTTP status, description and optional `parameters` (retry_after, …). A
 * `violation` is a request Telegram refuses because the bot broke a documented rule (the test
 * fails); the others are ordinary answers to the state of things ("message is not modified").
 */
export class BotApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number; migrate_to_chat_id?: number },
    readonly violation = false,
  ) {
    super(description);
  }
}

/** A refusal for breaking a documented rule (400, counted as a violation). */
function refuse(description: string): BotApiError {
  return new BotApiError(400, description, undefined, true);
}

/** Limits from core.telegram.org/bots/api. */
export const LIMITS = {
  text: 4096,
  caption: 1024,
  callbackData: 64,
  callbackAnswer: 200,
  commands: 100,
  commandDescription: 256,
  /** getFile refuses bigger files on the cloud Bot API. */
  downloadBytes: 20 * 1024 * 1024,
} as const;

const SCOPES = new Set([
  'default',
  'all_private_chats',
  'all_group_chats',
  'all_chat_administrators',
  'chat',
  'chat_administrators',
  'chat_member',
]);

/** Parses `text` in the given parse mode into what the user sees. */
export function parseFormatted(text: string, parseMode: unknown): ParsedHtml {
  if (parseMode === undefined || parseMode === '') return { text, entities: [] };
  if (parseMode !== 'HTML') {
    // Deckhand only ever uses HTML; anything else is a bug worth failing on.
    throw refuse(`Bad Request: unsupported parse_mode "${String(parseMode)}" in this fake`);
  }
  try {
    return parseTelegramHtml(text);
  } catch (error) {
    if (error instanceof HtmlParseError) throw refuse(error.message);
    throw error;
  }
}

/** Checks the text of a message (after parsing) against the 1–4096 limit. */
export function checkText(parsed: ParsedHtml): void {
  if (parsed.text.trim().length === 0) throw refuse('Bad Request: message text is empty');
  if (parsed.text.length > LIMITS.text) throw refuse('Bad Request: message is too long');
}

/** Checks a caption (after parsing) against the 1,024 limit. */
export function checkCaption(parsed: ParsedHtml): void {
  if (parsed.text.length > LIMITS.caption) {
    throw refuse('Bad Request: message caption is too long');
  }
}

const BUTTON_KINDS = [
  'url',
  'callback_data',
  'web_app',
  'login_url',
  'switch_inline_query',
  'switch_inline_query_current_chat',
  'switch_inline_query_chosen_chat',
  'copy_text',
  'callback_game',
  'pay',
];

/** Checks an inline keyboard: one kind per button, callback_data ≤ 64 bytes, valid URLs. */
export function checkKeyboard(markup: unknown): void {
  if (markup === undefined) return;
  const rows = (markup as { inline_keyboard?: unknown[][] }).inline_keyboard;
  if (!Array.isArray(rows)) return;
  let count = 0;
  for (const row of rows) {
    if (!Array.isArray(row) || row.length === 0 || row.length > 8) {
      throw refuse('Bad Request: BUTTON_TYPE_INVALID');
    }
    for (const button of row as Record<string, unknown>[]) {
      count += 1;
      const kinds = BUTTON_KINDS.filter((kind) => button[kind] !== undefined);
      if (kinds.length !== 1) throw refuse("Bad Request: can't parse inline keyboard button");
      if (typeof button.text !== 'string' || button.text.trim() === '') {
        throw refuse('Bad Request: text buttons are unallowed in the inline keyboard');
      }
      const data = button.callback_data;
      if (typeof data === 'string') {
        const bytes = Buffer.byteLength(data);
        if (bytes < 1 || bytes > LIMITS.callbackData) {
          throw refuse('Bad Request: BUTTON_DATA_INVALID');
        }
      }
      const url = button.url;
      if (typeof url === 'string' && !/^(https?|tg):\/\/\S+$/.test(url)) {
        throw refuse('Bad Request: BUTTON_URL_INVALID');
      }
    }
  }
  if (count > 100) throw refuse('Bad Request: reply markup is too long');
}

/** Checks setMyCommands: ≤ 100 commands, names `[a-z0-9_]{1,32}`, descriptions 1–256, a known scope. */
export function checkCommands(params: Record<string, unknown>): void {
  const commands = params.commands as { command: string; description: string }[];
  if (commands.length > LIMITS.commands) throw refuse('Bad Request: too many commands');
  const seen = new Set<string>();
  for (const { command, description } of commands) {
    if (!/^[a-z0-9_]{1,32}$/.test(command)) throw refuse('Bad Request: BOT_COMMAND_INVALID');
    if (seen.has(command)) throw refuse('Bad Request: command is duplicated');
    seen.add(command);
    if (description.trim().length === 0 || description.length > LIMITS.commandDescription) {
      throw refuse('Bad Request: command description is invalid');
    }
  }
  const scope = params.scope as { type?: string } | undefined;
  if (scope && !SCOPES.has(scope.type ?? '')) throw refuse('Bad Request: wrong scope type');
}

/** Checks setWebhook: an HTTPS URL on an allowed port and a well-formed secret token. */
export function checkWebhook(params: Record<string, unknown>): void {
  const url = String(params.url ?? '');
  if (url === '') return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse('Bad Request: bad webhook: invalid URL');
  }
  if (parsed.protocol !== 'https:') {
    throw refuse('Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
  }
  if (parsed.port && !['443', '80', '88', '8443'].includes(parsed.port)) {
    throw refuse('Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443');
  }
  const secret = params.secret_token;
  if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(String(secret))) {
    throw refuse('Bad Request: secret token contains unallowed characters');
  }
}
