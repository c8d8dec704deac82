/** Conversations a test types command by command, checking the card that answers each one. */
import { expect } from 'vitest';
import type { TestApp } from './app';

/**
 * What the first card answering a command shows: a string is a part of its text; `title` is its
 * whole title; `fields` its fields, all of them, in order.
 */
export type ExpectedReply =
  | string
  | { text?: string; title?: string; fields?: readonly { label: string; value: string }[] };

/** One step of a conversation: the command typed, and what answers it. */
export type ReplyStep = readonly [command: string, reply: ExpectedReply];

/**
 * Types each command of `steps` in turn (as `options.user` when given) and checks the first card
 * that answers it against its {@link ExpectedReply}; a failure names the command.
 */
export async function expectReplies(
  t: Pick<TestApp, 'say'>,
  steps: readonly ReplyStep[],
  options: { user?: string } = {},
): Promise<void> {
  for (const [command, reply] of steps) {
    const [card] = await t.say(command, options);
    const expected = typeof reply === 'string' ? { text: reply } : reply;
    if (expected.text !== undefined) expect(card?.text, command).toContain(expected.text);
    if (expected.title !== undefined) expect(card?.title, command).toBe(expected.title);
    if (expected.fields !== undefined) expect(card?.fields, command).toEqual(expected.fields);
  }
}
