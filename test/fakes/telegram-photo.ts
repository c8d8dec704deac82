/**
 * `sendPhoto` of the fake Bot API (https://core.telegram.org/bots/api#sendphoto, and
 * `specs/platforms/telegram-bot-api-openapi.json` `/bot{token}/sendPhoto`): `photo` is a file uploaded
 * with multipart/form-data (as the `photo` part or `attach://<name>`), an HTTP URL, or a file_id;
 * `caption` 0–1024 characters after entity parsing. Telegram answers with a Message whose `photo` is an
 * array of PhotoSize (file_id, file_unique_id, width, height, file_size); a file that is not an image
 * is refused with `Bad Request: IMAGE_PROCESS_FAILED`.
 */
import { pngSize } from './png';
import { BotApiError, checkCaption, checkKeyboard, parseFormatted } from './telegram-rules';
import type { FakeTelegramState } from './telegram-state';

/** A file part of a multipart request. */
interface UploadedFile {
  filename: string;
  mimeType: string;
  data: Buffer;
}

/** The photo a bot message carries. */
export interface FakePhoto {
  fileId: string;
  width: number;
  height: number;
  size: number;
  /** The uploaded bytes, or absent for a photo sent by URL. */
  content?: Buffer;
  /** The URL Telegram was asked to fetch it from. */
  url?: string;
}

/** The handler of `sendPhoto`. */
export function sendPhoto(
  state: FakeTelegramState,
  params: Record<string, unknown>,
  files: Record<string, UploadedFile>,
): unknown {
  const chat = state.chatFor(params.chat_id);
  const reference = String(params.photo ?? '');
  const file = reference.startsWith('attach://') ? files[reference.slice('attach://'.length)] : files.photo;
  let photo: FakePhoto;
  if (file) {
    const size = pngSize(file.data);
    if (!size) throw new BotApiError(400, 'Bad Request: IMAGE_PROCESS_FAILED');
    const stored = state.addFile({ fileName: file.filename, mimeType: 'image/png', content: file.data });
    photo = { fileId: stored.fileId, ...size, size: file.data.length, content: file.data };
  } else if (/^https?:\/\//.test(reference)) {
    const stored = state.addFile({ fileName: 'photo.jpg', mimeType: 'image/jpeg', size: 0 });
    photo = { fileId: stored.fileId, width: 0, height: 0, size: 0, url: reference };
  } else if (state.files.has(reference)) {
    photo = { fileId: reference, width: 0, height: 0, size: state.files.get(reference)?.size ?? 0 };
  } else {
    throw new BotApiError(400, 'Bad Request: wrong file identifier/HTTP URL specified');
  }
  const parsed = parseFormatted(String(params.caption ?? ''), params.parse_mode);
  checkCaption(parsed);
  checkKeyboard(params.reply_markup);
  const message = state.addMessage(chat.chat.id, {
    from: state.bot,
    fromBot: true,
    text: parsed.text,
    entities: parsed.entities,
    photo,
    ...(params.message_thread_id ? { threadId: Number(params.message_thread_id) } : {}),
    versions: [],
    deleted: false,
  });
  return state.toApi(message);
}
