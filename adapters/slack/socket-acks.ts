/**
 * Ack timing in Socket Mode. There Slack's envelope arrives over the WebSocket and Bolt acknowledges
 * it by sending `{envelope_id, payload}` back on the same socket; the time between the two is the
 * Socket Mode counterpart of the Events API's HTTP response time. Both ends are public events of
 * @slack/socket-mode's SocketModeClient (3.x, dist/src/SocketModeClient.js `onWebSocketMessage` and
 * `send`): `slack_event` carries the `envelope_id` of each envelope as it is dispatched, and
 * `outgoing_message` is emitted with the same `envelope_id` just before the ack is written to the
 * socket. No private field is touched.
 *
 * Bolt's own `slack_event` listener is registered first (in SocketModeReceiver's constructor), but it
 * cannot have acknowledged by the time this one runs: the ack needs Bolt's asynchronous middleware
 * chain, and the emit calls every listener in the same tick.
 */
import { recordAck } from '../api-metrics';

/** The part of SocketModeClient used here (an EventEmitter). */
export interface SocketEvents {
  on(event: 'slack_event' | 'outgoing_message', listener: (arg: { envelope_id?: string }) => void): unknown;
}

/** Envelopes never acknowledged (a listener failed) are forgotten after this long. */
const FORGET_MS = 60_000;
/** At most this many envelopes waiting for their ack are remembered. */
const MAX_WAITING = 1000;

/**
 * Observes `deckhand_ack_duration_seconds{platform="slack"}` for each envelope the client receives
 * and acknowledges. `record` is the observation (the ack histogram by default).
 */
export function timeSocketAcks(
  client: SocketEvents,
  record: (seconds: number) => void = (seconds) => recordAck('slack', seconds),
): void {
  const waiting = new Map<string, number>();
  client.on('slack_event', ({ envelope_id: id }) => {
    if (!id) return;
    const now = performance.now();
    for (const [key, at] of waiting) {
      if (now - at < FORGET_MS && waiting.size < MAX_WAITING) break;
      waiting.delete(key);
    }
    waiting.set(id, now);
  });
  client.on('outgoing_message', ({ envelope_id: id }) => {
    const started = id ? waiting.get(id) : undefined;
    if (id === undefined || started === undefined) return;
    waiting.delete(id);
    record((performance.now() - started) / 1000);
  });
}
