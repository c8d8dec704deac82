/**
 * `POST /telegram/webhook`: Telegram's webhook delivery. The `X-Telegram-Bot-Api-Secret-Token`
 * header must equal `TELEGRAM_WEBHOOK_SECRET` (compared in constant time); otherwise 401 and nothing
 * happens. A valid update is acknowledged at once (200) and handled afterwards, so a slow command
 * never makes Telegram time out and deliver the update again.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Update } from 'grammy/types';
import type { Logger } from 'pino';
import type { RouteHandler } from '../../src/core/host';

export { WEBHOOK_PATH } from './paths';

/** Telegram's header carrying the secret token given to `setWebhook`. */
const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/** Largest body accepted (an update is a few kB). */
const MAX_BODY_BYTES = 1024 * 1024;

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The webhook route: checks the secret, acknowledges, then hands the update to `handle`. */
export function webhookRoute(options: {
  secret: string;
  handle(update: Update): void;
  logger: Logger;
}): RouteHandler {
  return async (req, res) => {
    const given = req.headers[SECRET_HEADER];
    if (typeof given !== 'string' || !sameSecret(given, options.secret)) {
      req.resume();
      options.logger.warn({ hasHeader: typeof given === 'string' }, 'telegram webhook: wrong secret token');
      res.writeHead(401, { 'content-type': 'text/plain' });
      res.end('secret token is wrong');
      return;
    }
    const body = await readBody(req);
    let update: Update | undefined;
    try {
      update = body ? (JSON.parse(body.toString('utf8')) as Update) : undefined;
    } catch {
      update = undefined;
    }
    if (!update || typeof update.update_id !== 'number') {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('not a Telegram update');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
    options.handle(update);
  };
}
