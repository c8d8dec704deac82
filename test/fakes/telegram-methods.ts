/**
 * The Bot API methods the fake implements, over {@link FakeTelegramState}. Each returns the method's
 * `result` or throws a {@link BotApiError} worded like the real one.
 */
import type { InlineKeyboardMarkup } from 'grammy/types';
import { sendPhoto } from './telegram-photo';
import {
  BotApiError,
  checkCaption,
  checkCommands,
  checkKeyboard,
  checkText,
  LIMITS,
  parseFormatted,
} from './telegram-rules';
import type { FakeTelegramState } from './telegram-state';
import { WEBHOOK_METHODS } from './telegram-webhook-methods';

/** A file part of a multipart request. */
export interface UploadedFile {
  filename: string;
  mimeType: string;
  data: Buffer;
}

type Params = Record<string, unknown>;
/** One method: its `result`, or a thrown {@link BotApiError}. */
export type Handler = (
  state: FakeTelegramState,
  params: Params,
  files: Record<string, UploadedFile>,
) => unknown;

function sameContent(
  a: { text: string; entities: unknown; replyMarkup?: InlineKeyboardMarkup | undefined },
  b: { text: string; entities: unknown; replyMarkup?: InlineKeyboardMarkup | undefined },
): boolean {
  return (
    a.text === b.text &&
    JSON.stringify(a.entities) === JSON.stringify(b.entities) &&
    JSON.stringify(a.replyMarkup ?? null) === JSON.stringify(b.replyMarkup ?? null)
  );
}

function replyTarget(state: FakeTelegramState, params: Params): number | undefined {
  const reply = params.reply_parameters as { message_id?: number; allow_sending_without_reply?: boolean };
  if (!reply?.message_id) return undefined;
  try {
    return state.messageFor(params.chat_id, reply.message_id, 'reply').messageId;
  } catch (error) {
    if (reply.allow_sending_without_reply) return undefined;
    throw error;
  }
}

const sendMessage: Handler = (state, params) => {
  const chat = state.chatFor(params.chat_id);
  const parsed = parseFormatted(String(params.text), params.parse_mode);
  checkText(parsed);
  checkKeyboard(params.reply_markup);
  const replyTo = replyTarget(state, params);
  const replyMarkup = params.reply_markup as InlineKeyboardMarkup | undefined;
  const html = params.parse_mode === 'HTML' ? String(params.text) : undefined;
  const message = state.addMessage(chat.chat.id, {
    from: state.bot,
    fromBot: true,
    ...(html !== undefined ? { html } : {}),
    text: parsed.text,
    entities: parsed.entities,
    ...(replyMarkup ? { replyMarkup } : {}),
    ...(params.message_thread_id ? { threadId: Number(params.message_thread_id) } : {}),
    ...(replyTo ? { replyTo } : {}),
    versions: [],
    deleted: false,
  });
  message.versions.push({
    at: Date.now(),
    ...(html !== undefined ? { html } : {}),
    text: parsed.text,
    entities: parsed.entities,
    ...(replyMarkup ? { replyMarkup } : {}),
  });
  return state.toApi(message);
};

const editMessageText: Handler = (state, params) => {
  if (params.inline_message_id) throw new BotApiError(400, 'Bad Request: inline messages are not faked');
  const message = state.messageFor(params.chat_id, params.message_id, 'edit');
  if (!message.fromBot) throw new BotApiError(400, "Bad Request: message can't be edited");
  if (message.document) throw new BotApiError(400, 'Bad Request: there is no text in the message to edit');
  const parsed = parseFormatted(String(params.text ?? ''), params.parse_mode);
  checkText(parsed);
  checkKeyboard(params.reply_markup);
  const replyMarkup = params.reply_markup as InlineKeyboardMarkup | undefined;
  const next = { text: parsed.text, entities: parsed.entities, ...(replyMarkup ? { replyMarkup } : {}) };
  if (sameContent(message, next)) {
    throw new BotApiError(
      400,
      'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
    );
  }
  const html = params.parse_mode === 'HTML' ? String(params.text) : undefined;
  message.html = html;
  message.text = parsed.text;
  message.entities = parsed.entities;
  message.replyMarkup = replyMarkup;
  message.versions.push({ at: Date.now(), ...(html !== undefined ? { html } : {}), ...next });
  return state.toApi(message);
};

const answerCallbackQuery: Handler = (state, params) => {
  const query = state.callbacks.get(String(params.callback_query_id));
  if (!query || query.answeredAt !== undefined) {
    throw new BotApiError(
      400,
      'Bad Request: query is too old and response timeout expired or query ID is invalid',
    );
  }
  const text = params.text === undefined ? undefined : String(params.text);
  if (text !== undefined && text.length > LIMITS.callbackAnswer) {
    throw new BotApiError(400, 'Bad Request: MESSAGE_TOO_LONG', undefined, true);
  }
  query.answeredAt = Date.now();
  query.answer = { ...(text !== undefined ? { text } : {}), show_alert: params.show_alert === true };
  return true;
};

const sendDocument: Handler = (state, params, files) => {
  const chat = state.chatFor(params.chat_id);
  const reference = String(params.document ?? '');
  let file: UploadedFile | undefined;
  let fileId: string;
  if (reference.startsWith('attach://')) {
    file = files[reference.slice('attach://'.length)];
    if (!file)
      throw new BotApiError(400, 'Bad Request: wrong file identifier/HTTP URL specified', undefined, true);
  } else if (files.document) {
    file = files.document;
  }
  if (file) {
    fileId = state.addFile({ fileName: file.filename, mimeType: file.mimeType, content: file.data }).fileId;
  } else if (state.files.has(reference)) {
    fileId = reference;
  } else {
    throw new BotApiError(400, 'Bad Request: wrong file identifier/HTTP URL specified');
  }
  const stored = state.files.get(fileId);
  const parsed = parseFormatted(String(params.caption ?? ''), params.parse_mode);
  checkCaption(parsed);
  checkKeyboard(params.reply_markup);
  const replyTo = replyTarget(state, params);
  const message = state.addMessage(chat.chat.id, {
    from: state.bot,
    fromBot: true,
    text: parsed.text,
    entities: parsed.entities,
    document: {
      fileId,
      fileName: stored?.fileName ?? 'document',
      ...(stored?.mimeType ? { mimeType: stored.mimeType } : {}),
      ...(stored?.content ? { content: stored.content } : {}),
      size: stored?.size ?? 0,
    },
    ...(params.message_thread_id ? { threadId: Number(params.message_thread_id) } : {}),
    ...(replyTo ? { replyTo } : {}),
    versions: [],
    deleted: false,
  });
  return state.toApi(message);
};

const getFile: Handler = (state, params) => {
  const file = state.files.get(String(params.file_id));
  if (!file) throw new BotApiError(400, 'Bad Request: invalid file_id');
  if (file.size > LIMITS.downloadBytes) throw new BotApiError(400, 'Bad Request: file is too big');
  return {
    file_id: file.fileId,
    file_unique_id: file.fileUniqueId,
    file_size: file.size,
    file_path: file.path,
  };
};

const deleteMessage: Handler = (state, params) => {
  const message = state.messageFor(params.chat_id, params.message_id, 'delete');
  const chat = state.chats.get(message.chatId)?.chat;
  if (!message.fromBot && chat?.type !== 'private') {
    throw new BotApiError(400, "Bad Request: message can't be deleted");
  }
  message.deleted = true;
  return true;
};

function scopeKey(params: Params): string {
  const scope = params.scope as { type: string; chat_id?: unknown } | undefined;
  // The Bot API keeps one list per scope and language (`language_code`, none for every language).
  const key = scope ? [scope.type, scope.chat_id].filter((p) => p !== undefined).join(':') : 'default';
  return typeof params.language_code === 'string' && params.language_code
    ? `${key}@${params.language_code}`
    : key;
}

/** Every method the fake answers. */
export const METHODS: Record<string, Handler> = {
  getMe: (state) => state.bot,
  logOut: () => true,
  close: () => true,
  ...WEBHOOK_METHODS,
  sendMessage,
  editMessageText,
  answerCallbackQuery,
  sendDocument,
  sendPhoto,
  getFile,
  deleteMessage,
  sendChatAction: (state, params) => {
    state.chatFor(params.chat_id);
    return true;
  },
  setMyCommands: (state, params) => {
    checkCommands(params);
    state.commands.set(scopeKey(params), params.commands as never);
    return true;
  },
  getMyCommands: (state, params) => state.commands.get(scopeKey(params)) ?? [],
  deleteMyCommands: (state, params) => {
    state.commands.delete(scopeKey(params));
    return true;
  },
};
