/** Ed25519 verification of Discord's HTTP interactions (`X-Signature-Ed25519` over timestamp + body). */
import { createPublicKey, type KeyObject, verify } from 'node:crypto';

/** DER prefix that turns a raw 32-byte Ed25519 public key into SPKI. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The application's public key (64 hex digits from the developer portal) as a Node key. */
export function discordPublicKey(hex: string): KeyObject {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('DISCORD_PUBLIC_KEY must be 64 hex digits');
  return createPublicKey({
    key: Buffer.concat([SPKI_PREFIX, Buffer.from(hex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
}

/** True when `signature` (hex) signs `timestamp + body` for `key`. */
export function verifyDiscordSignature(
  key: KeyObject,
  body: Buffer,
  signature: string | undefined,
  timestamp: string | undefined,
): boolean {
  if (!signature || !timestamp || !/^[0-9a-fA-F]{128}$/.test(signature)) return false;
  try {
    return verify(
      null,
      Buffer.concat([Buffer.from(timestamp, 'utf8'), body]),
      key,
      Buffer.from(signature, 'hex'),
    );
  } catch {
    return false;
  }
}

/**
 * How far `X-Signature-Timestamp` may be from our clock. The signature covers the timestamp but
 * nothing stops a captured request from being sent again later, so an old one is refused: the same
 * 5-minute window as Bolt's Slack verification (`@slack/bolt` 5.1.0,
 * `dist/receivers/verify-request.js`: `requestTimestampMaxDeltaMin = 5`). Bolt only refuses the
 * past; a timestamp more than 5 minutes ahead is refused here too (a clock that far off is not
 * Discord's).
 */
export const DISCORD_TIMESTAMP_MAX_SKEW_SECONDS = 5 * 60;

/** True when `timestamp` (Unix seconds, as Discord sends it) is within 5 minutes of `nowMs`. */
export function discordTimestampFresh(timestamp: string | undefined, nowMs = Date.now()): boolean {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(Math.floor(nowMs / 1000) - Number(timestamp)) <= DISCORD_TIMESTAMP_MAX_SKEW_SECONDS;
}
