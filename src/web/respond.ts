/** Responses of Deckhand's own web pages, with the security headers every HTML page carries. */
import type { ServerResponse } from 'node:http';

/**
 * Headers of every HTML page Deckhand serves: never cached, never framed, never sniffed as another
 * type, no referrer leaked (the addresses hold single-use ids), and a CSP that allows only the
 * page's own inline style and forms posting back to Deckhand (no scripts, images or fetches).
 */
export const HTML_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
};

/** Sends an HTML page with {@link HTML_PAGE_HEADERS} (plus `headers`, e.g. `set-cookie`). */
export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string | string[]> = {},
): void {
  res.writeHead(status, { ...HTML_PAGE_HEADERS, ...headers });
  res.end(html);
}

/** Sends a JSON answer (`nosniff`, never cached). */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
  res.end(JSON.stringify(body));
}
