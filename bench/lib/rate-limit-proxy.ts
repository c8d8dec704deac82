/**
 * A rate-limiting proxy in front of a chat platform fake (an opt-in "enforce the documented limits"
 * mode that leaves the fakes themselves untouched): every request is checked against the platform's
 * limits (platform-limits.ts); one over a limit is answered 429 the way the platform answers it and
 * counted, the others are forwarded to the fake unchanged. Successful message deliveries are timed.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as undiciRequest } from 'undici';
import type { PlatformRules, SeenRequest } from './platform-limits';
import { WindowLimiter } from './rate-limit';

/** One delivered message: where, and when the fake accepted it. */
export interface Delivered {
  conversation: string;
  at: number;
}

/** A running proxy. */
export interface RateLimitProxy {
  /** Base URL to give the bot instead of the fake's. */
  url: string;
  /** 429s the proxy answered, by the limit that was exceeded. */
  refused: Map<string, number>;
  /** Message deliveries the fake accepted (2xx), in order. */
  delivered: Delivered[];
  /** Total 429s. */
  refusedTotal(): number;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a proxy for `rules` in front of `target` (the fake's base URL) on 127.0.0.1. */
export async function startRateLimitProxy(target: string, rules: PlatformRules): Promise<RateLimitProxy> {
  const limiter = new WindowLimiter();
  const refused = new Map<string, number>();
  const delivered: Delivered[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const seen: SeenRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      headers: req.headers,
      body: await readBody(req),
    };
    const limits = rules.limits(seen);
    const verdict = limiter.take(limits);
    if (!verdict.allowed) {
      const bucket = verdict.key.replace(/:[^:]*\d[^:]*$/, ':<id>');
      refused.set(bucket, (refused.get(bucket) ?? 0) + 1);
      const answer = rules.tooMany(verdict);
      res.writeHead(429, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && name !== 'host' && name !== 'connection' && name !== 'keep-alive')
        headers[name] = value;
    }
    const upstream = await undiciRequest(`${target}${url.pathname}${url.search}`, {
      method: seen.method as 'GET',
      headers,
      ...(seen.body.length > 0 ? { body: seen.body } : {}),
    });
    const body = Buffer.from(await upstream.body.arrayBuffer());
    const out: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (
        value !== undefined &&
        !['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name)
      ) {
        out[name] = value;
      }
    }
    const channelLimit = limits.find((l) => l.key.startsWith('discord:channel:'));
    if (channelLimit) {
      // Discord tells the client where its per-channel bucket stands, so the SDK can wait before a 429.
      const state = limiter.state(channelLimit);
      out['x-ratelimit-limit'] = String(channelLimit.limit);
      out['x-ratelimit-remaining'] = String(state.remaining);
      out['x-ratelimit-reset-after'] = (state.resetAfterMs / 1000).toFixed(3);
      out['x-ratelimit-reset'] = ((Date.now() + state.resetAfterMs) / 1000).toFixed(3);
      out['x-ratelimit-bucket'] = 'channel-messages';
    }
    const conversation = rules.delivery(seen);
    if (conversation !== undefined && upstream.statusCode < 300 && !isSlackError(rules.name, body)) {
      delivered.push({ conversation, at: Date.now() });
    }
    res.writeHead(upstream.statusCode, { ...out, 'content-length': String(body.length) });
    res.end(body);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy error: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refused,
    delivered,
    refusedTotal: () => [...refused.values()].reduce((a, b) => a + b, 0),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Slack answers errors with 200 and `ok: false`. */
function isSlackError(platform: string, body: Buffer): boolean {
  return platform === 'slack' && body.includes('"ok":false');
}
