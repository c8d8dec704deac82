/**
 * Secret values known to this process (deploy tokens, API keys, envvar values as they pass through).
 * Every log line and every outgoing card is scrubbed of them, as a last line of defence behind
 * "never put a secret there in the first place".
 */
const known = new Set<string>();

/** Field names whose values are always secret, wherever they appear. */
export const SECRET_KEYS = [
  'token',
  'password',
  'secret',
  'apiKey',
  'api_key',
  'key',
  'authorization',
  'value',
  'code_verifier',
];

/** Remembers a secret value so it is masked wherever it would be written. Ignores short values. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 6) known.add(value);
}

/** Replaces every known secret in a string with `[redacted]`. */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const secret of known) {
    if (out.includes(secret)) out = out.replaceAll(secret, '[redacted]');
  }
  return out;
}

/** Masks a secret for display: `••••••f3a9` (last 4 visible when long enough). */
export function maskSecret(value: string): string {
  if (value.length < 12) return '••••••';
  return `••••••${value.slice(-4)}`;
}
