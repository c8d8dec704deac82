/** Inline keyboards: Deckhand's buttons (callback_data = the short action id) and link buttons. */
import type { InlineKeyboardButton, InlineKeyboardMarkup } from 'grammy/types';
import type { Card, CardButton } from '../../src/core/reply';
import { TELEGRAM_LIMITS } from './limits';

/** Lays buttons out in rows: up to three short ones, or two longer ones, per row. */
export function keyboardOf(buttons: CardButton[], links: Card['links']): InlineKeyboardMarkup | undefined {
  const keys: InlineKeyboardButton[] = [];
  for (const button of buttons) {
    if (Buffer.byteLength(button.actionId) > TELEGRAM_LIMITS.callbackData) continue;
    keys.push({ text: button.label.slice(0, 64), callback_data: button.actionId });
  }
  for (const link of links ?? []) keys.push({ text: link.label.slice(0, 64), url: link.url });
  if (keys.length === 0) return undefined;
  const perRow = keys.every((k) => k.text.length <= 12) ? 3 : 2;
  const rows: InlineKeyboardButton[][] = [];
  for (let i = 0; i < keys.length; i += perRow) rows.push(keys.slice(i, i + perRow));
  return { inline_keyboard: rows };
}
