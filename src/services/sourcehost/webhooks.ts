/**
 * Webhook signatures: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the hook
 * secret>`, compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The `X-Hub-Signature-256` value for a body. */
export function signWebhook(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** True when `signature` is the body's signature with `secret`. */
export function verifyWebhook(secret: string, body: string | Buffer, signature: string | undefined): boolean {
  if (!signature || !/^sha256=[0-9a-f]{64}$/.test(signature)) return false;
  const expected = Buffer.from(signWebhook(secret, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
