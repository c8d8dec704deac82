/** Reading what a browser sent to Deckhand's own pages: a bounded body and a named cookie. */
import type { IncomingMessage } from 'node:http';

/** Largest body a page accepts. */
const MAX_BODY = 1024 * 1024;

/** The request body, or undefined when it is over 1 MB. */
export async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The value of the cookie `name`, if the browser sent it. */
export function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** The `Origin` header, or undefined when absent or opaque (`null`). */
export function originOf(req: IncomingMessage): string | undefined {
  const origin = req.headers.origin;
  return typeof origin === 'string' && origin !== 'null' ? origin : undefined;
}
