/**
 * `POST /discord/interactions`: Discord's HTTP interactions endpoint. Checks the Ed25519 signature
 * and the age of its timestamp (401 when it is wrong or more than 5 minutes off), answers PING, and sends the interaction's first answer as the HTTP
 * response; everything after goes through the REST API like in gateway mode.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIInteraction, APIInteractionResponse } from 'discord.js';
import type { Logger } from 'pino';
import type { RouteHandler } from '../../src/core/host';
import type { InteractionHandler } from './interactions';
import { discordPublicKey, discordTimestampFresh, verifyDiscordSignature } from './signature';

export { INTERACTIONS_PATH } from './paths';

/** Interaction payloads are small; anything bigger is not from Discord. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Options of {@link interactionsEndpoint}. */
export interface InteractionsEndpointOptions {
  publicKey: string;
  handler: InteractionHandler;
  logger: Logger;
  /** False after the adapter stopped: answer 503. */
  running: () => boolean;
}

/** The raw Node handler for the interactions route. */
export function interactionsEndpoint(options: InteractionsEndpointOptions): RouteHandler {
  const key = discordPublicKey(options.publicKey);
  return async (req, res) => {
    if (!options.running()) return send(res, 503, { error: 'not running' });
    let body: Buffer;
    try {
      body = await readRaw(req);
    } catch {
      return send(res, 413, { error: 'body too large' });
    }
    const signature = header(req, 'x-signature-ed25519');
    const timestamp = header(req, 'x-signature-timestamp');
    if (!verifyDiscordSignature(key, body, signature, timestamp)) {
      options.logger.warn('discord: refused an interaction with a bad signature');
      return send(res, 401, { error: 'invalid request signature' });
    }
    if (!discordTimestampFresh(timestamp)) {
      options.logger.warn({ timestamp }, 'discord: refused a signed interaction with a stale timestamp');
      return send(res, 401, { error: 'stale request timestamp' });
    }
    let interaction: APIInteraction;
    try {
      interaction = JSON.parse(body.toString('utf8')) as APIInteraction;
    } catch {
      return send(res, 400, { error: 'invalid JSON' });
    }
    let answered = false;
    await new Promise<void>((resolve) => {
      const answer = async (response: APIInteractionResponse) => {
        answered = true;
        send(res, 200, response);
        resolve();
      };
      void options.handler.handle(interaction, answer).then((outcome) => {
        if (!answered)
          send(res, outcome === 'duplicate' ? 409 : 500, {
            error: outcome === 'duplicate' ? 'duplicate interaction' : 'no answer',
          });
        resolve();
      });
    });
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
