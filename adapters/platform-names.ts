/**
 * The platforms' names alone, in the order of the table (adapters/platforms.ts, which checks them
 * against its descriptors): a leaf module with no imports, for what must not load the descriptors —
 * `deckhand --help`, and the queue and store layers' one delivery queue per platform.
 */

/** Every platform's name, in the table's order; the terminal chat's is last. */
export const PLATFORM_NAMES = ['slack', 'discord', 'telegram', 'irc', 'matrix', 'shell'] as const;

/** A platform's name. */
export type PlatformName = (typeof PLATFORM_NAMES)[number];

/** The terminal chat's name (`deckhand shell`, and `start` with no chat platform configured). */
export const TERMINAL_NAME: PlatformName = 'shell';

/** The chat platforms' names (every platform but the terminal), in the table's order. */
export const CHAT_PLATFORM_NAMES: readonly PlatformName[] = PLATFORM_NAMES.filter(
  (name) => name !== TERMINAL_NAME,
);
