/**
 * Read-only web views of whole cards, for platforms that show only a compact summary in the chat:
 * the full card is kept (sealed) under an unguessable id, and the web process serves it at
 * `CARD_VIEW_PATH<id>` as an inert page, its picture and its files.
 */
import { randomBytes } from 'node:crypto';
import type { KeyValueStore } from './host';
import type { Card } from './reply';

/** Where the web process serves card views (`/cards/<id>`). */
export const CARD_VIEW_PATH = '/cards/';

/** The key-value namespace of stored card views (opened sealed). */
export const CARD_VIEW_NAMESPACE = 'card-view';

/** How long a card's view stays readable. */
export const CARD_VIEW_TTL_MS = 7 * 24 * 3600_000;

/** An unguessable id: 128 random bits, URL-safe. */
export function newCardViewId(): string {
  return randomBytes(16).toString('base64url');
}

/** True for a string shaped like a card view id (anything else is not looked up). */
export function isCardViewId(id: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(id);
}

/** Keeps `card` viewable under `id` (a new one by default); resolves with the id. */
export async function keepCardView(store: KeyValueStore, card: Card, id = newCardViewId()): Promise<string> {
  const { buttons: _buttons, ...shown } = card;
  await store.set(id, JSON.stringify(shown), { ttlMs: CARD_VIEW_TTL_MS });
  return id;
}

/** The card kept under `id`, or `undefined` when there is none (unknown, expired, malformed id). */
export async function cardView(store: KeyValueStore, id: string): Promise<Card | undefined> {
  if (!isCardViewId(id)) return undefined;
  const stored = await store.get(id);
  return stored === undefined ? undefined : (JSON.parse(stored) as Card);
}
