/**
 * The consumer of the IRC outbox, in the process holding the connection: each queued message's lines
 * are split at the server's byte limit (on character boundaries), paced by the flood gate, and sent
 * once — each piece is claimed just before it is written, so a message retried after a crash or a
 * disconnect sends only what had not gone out (a piece cut off by a dropped connection may be lost).
 * Lines for a conversation the bot was kicked from are dropped.
 */
import type { DeliveryDeduper } from '../../src/core/host';
import type { OutboundMessage } from '../../src/core/line-outbox';
import type { FloodGate } from './flood';
import type { IrcLink } from './link';
import { splitBytes, textBudget } from './text';

/** What the sender needs. */
export interface SenderDeps {
  link: IrcLink;
  gate: FloodGate;
  /** Per-piece claims (kept a week). */
  claims: DeliveryDeduper;
  isGone(conversationId: string): Promise<boolean>;
}

/** No line break or NUL may reach the wire (it would end the line and start a command). */
const oneLine = (line: string) => line.replace(/[\r\n\0]+/g, ' ');

/** Sends one queued message (the outbox calls it; a throw makes it try again later). */
export async function sendQueued(deps: SenderDeps, message: OutboundMessage, id: string): Promise<void> {
  if (await deps.isGone(message.conversationId)) return;
  for (const [i, line] of message.lines.entries()) {
    const pieces = splitBytes(oneLine(line), textBudget(deps.link.self(), message.target));
    for (const [j, piece] of pieces.entries()) {
      await deps.gate.take(message.target);
      if (!(await deps.link.inTarget(message.target, 30_000))) {
        if (await deps.isGone(message.conversationId)) return;
        throw new Error(`not in ${message.target} (yet)`);
      }
      if (!(await deps.claims.claim(`irc:sent:${id}:${i}:${j}`))) continue;
      deps.link.client.raw(`PRIVMSG ${message.target} :${piece}`);
    }
  }
}
