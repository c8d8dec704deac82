/** Telegram's limits (core.telegram.org/bots/api). */
export const TELEGRAM_LIMITS = {
  /** Visible characters of a message, after entity parsing. */
  text: 4096,
  /** Visible characters of a media caption. */
  caption: 1024,
  /** Bytes of an inline button's callback_data. */
  callbackData: 64,
} as const;
