/**
 * Slack's Socket Mode side: `apps.connections.open` hands out a `ws://` URL on the fake's port; the
 * fake says `hello`, then delivers envelopes (`slash_commands`, `interactive`, `events_api`) and
 * waits for the app's acknowledgement `{envelope_id, payload?}`, as Slack does.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';

/** What the app answered to an envelope, and how long it took. */
export interface SocketAck {
  payload?: unknown;
  ms: number;
}

/** The fake Socket Mode endpoint. */
export class FakeSocketMode {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly tickets = new Set<string>();
  private readonly waiting = new Map<string, (ack: { payload?: unknown }) => void>();
  private client: WebSocket | undefined;
  /** Connections made so far (reconnects count). */
  connections = 0;

  constructor(server: Server) {
    server.on('upgrade', (req, socket, head) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const ticket = url.pathname.startsWith('/socket/') ? url.pathname.slice(8) : '';
      if (!this.tickets.delete(ticket)) {
        socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
    });
  }

  /** A one-time WebSocket URL (what `apps.connections.open` returns). */
  connectUrl(httpBase: string): string {
    const ticket = randomBytes(8).toString('hex');
    this.tickets.add(ticket);
    return `${httpBase.replace(/^http/, 'ws')}/socket/${ticket}`;
  }

  /** True while an app is connected. */
  get connected(): boolean {
    return this.client?.readyState === 1;
  }

  /** Delivers an envelope and resolves with the app's acknowledgement. */
  async deliver(type: 'slash_commands' | 'interactive' | 'events_api', payload: unknown): Promise<SocketAck> {
    const client = this.client;
    if (client?.readyState !== 1) throw new Error('no Socket Mode connection');
    const envelope_id = randomBytes(8).toString('hex');
    const started = Date.now();
    const acked = new Promise<{ payload?: unknown }>((resolve, reject) => {
      this.waiting.set(envelope_id, resolve);
      setTimeout(() => reject(new Error('no acknowledgement within 3 s')), 3000).unref();
    });
    client.send(
      JSON.stringify({
        envelope_id,
        type,
        payload,
        accepts_response_payload: type !== 'events_api',
        retry_attempt: 0,
      }),
    );
    const ack = await acked;
    return { ...ack, ms: Date.now() - started };
  }

  async close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise((resolve) => this.wss.close(resolve));
  }

  private accept(ws: WebSocket): void {
    this.client = ws;
    this.connections += 1;
    ws.on('message', (data) => {
      let message: { envelope_id?: string; payload?: unknown };
      try {
        message = JSON.parse(String(data));
      } catch {
        return;
      }
      const resolve = message.envelope_id ? this.waiting.get(message.envelope_id) : undefined;
      if (resolve && message.envelope_id) {
        this.waiting.delete(message.envelope_id);
        resolve({ ...(message.payload !== undefined ? { payload: message.payload } : {}) });
      }
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: 1,
        debug_info: { host: 'fake-slack', approximate_connection_time: 3600 },
        connection_info: { app_id: 'A0TEST' },
      }),
    );
  }
}
