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
