/**
 * What Deckhand treats as secret, and the interfaces of the secret index that masks them (see
 * `docs/secrets.md`). A secret is known by where it lives — a vault value, a deploy token the
 * platform handed out, a configured bot token or key, an envvar value that looks or is named like a
 * secret — never because someone typed it somewhere: a value that was refused registers nothing.
 */

/**
 * Field names whose values are always secret, wherever they appear: the logger redacts them
 * (`src/log.ts` builds its paths from this list), and envvar names containing one of them (as a
 * `_`-separated part, case-insensitive) are secret envvars.
 */
export const SECRET_FIELD_NAMES = [
  'token',
  'password',
  'passwd',
  'secret',
  'apiKey',
  'api_key',
  'appPassword',
  'applicationPassword',
  'clientSecret',
  'client_secret',
  'access_token',
  'refresh_token',
  'authorization',
  'cookie',
  'code_verifier',
  'value',
] as const;

/** Scope of a secret: everywhere, or only the cards about one tool. */
export type SecretScope = 'global' | { tool: string };

/** Registers the exact values of secrets so that every process masks them from then on. */
export interface SecretRegistrar {
  /** Registers a secret value (a vault value, a deploy token): masked in every card. */
  register(value: string | undefined, scope?: SecretScope): Promise<void>;
  /**
   * Registers an envvar value of `tool` when {@link envvarIsSecret} says it is one: then it is
   * masked in the logs and upstream output shown on that tool's cards.
   */
  registerEnvvar(tool: string, name: string, value: string | undefined): Promise<void>;
}

/** Masks registered secrets in untrusted text. */
export interface SecretScrubber {
  /**
   * The texts with every registered secret masked as `[redacted]`: the global ones in all of them,
   * the ones of `tool` in the texts whose index is in `untrusted` (logs, upstream output), or in all
   * of them with `'all'`.
   */
  scrubTexts(
    texts: string[],
    options?: { tool?: string; untrusted?: ReadonlySet<number> | 'all' },
  ): Promise<string[]>;
  /** Synchronous masking with what this process has seen (for log lines, which cannot wait). */
  scrubKnown(text: string): string;
}

const SECRET_NAME_PARTS = new Set(
  [
    'token',
    'password',
    'passwd',
    'pass',
    'pwd',
    'secret',
    'key',
    'apikey',
    'auth',
    'credential',
    'credentials',
  ].map((p) => p.toLowerCase()),
);

/**
 * True when an envvar (or config) name says its value is secret: `API_TOKEN`, `DB_PASSWORD`,
 * `SECRET_KEY`, `TOOLHOST_DEPLOY_TOKENS` (a `_`-separated part, singular or plural, names a secret).
 */
export function isSecretName(name: string): boolean {
  return name
    .toLowerCase()
    .split(/[_\-.]+/)
    .map((part) => part.replace(/s$/, ''))
    .some((part) => SECRET_NAME_PARTS.has(part) || part.includes('password') || part.includes('secret'));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Character class for {@link looksLikeSecret}: 0 lower, 1 upper, 2 digit, 3 other (ignored). */
function charClass(c: string): number {
  if (c >= 'a' && c <= 'z') return 0;
  if (c >= 'A' && c <= 'Z') return 1;
  if (c >= '0' && c <= '9') return 2;
  return 3;
}

/**
 * True when a value looks like a credential by its shape alone: a well-known token prefix (`ghp_`,
 * `xoxb-`, a `123456:ABC…` bot token, …), a UUID (the form of deploy tokens), or a run of at least 16
 * letters and digits (base64 and hex included) that switches between lower case, upper case and
 * digits at least every third character, with at least 8 distinct characters — as random keys do and
 * words, numbers, dates and names such as `app-2024-production` or `deploy-7f3a9c21` do not.
 */
export function looksLikeSecret(value: string): boolean {
  if (/^(gh[pousr]_|github_pat_|xox[abpr]-|xapp-)[A-Za-z0-9_-]{10,}$/.test(value)) return true;
  if (/^\d{6,12}:[A-Za-z0-9_-]{30,}$/.test(value)) return true;
  if (UUID.test(value)) return true;
  for (const run of value.match(/[A-Za-z0-9+/=]{16,}/g) ?? []) {
    let switches = 0;
    let previous = -1;
    for (const c of run) {
      const cls = charClass(c);
      if (cls === 3) continue;
      if (previous !== -1 && cls !== previous) switches += 1;
      previous = cls;
    }
    if (switches / run.length >= 0.3 && new Set(run).size >= 8) return true;
  }
  return false;
}

/**
 * The rule for envvar values: one is a secret of its tool when its name says so (`*_TOKEN`,
 * `*_KEY`, `*PASSWORD*`, `*SECRET*`, …) and it has at least 6 characters, or when it looks like a
 * credential ({@link looksLikeSecret}). `running`, `1`, `true` or `production` under an ordinary name
 * are never secrets.
 */
export function envvarIsSecret(name: string, value: string): boolean {
  if (value.trim().length < 6) return false;
  return isSecretName(name) || looksLikeSecret(value.trim());
}

/** Masks a secret for display: `••••••f3a9` (last 4 visible when long enough). */
export function maskSecret(value: string): string {
  if (value.length < 12) return '••••••';
  return `••••••${value.slice(-4)}`;
}

const logScrubbers = new Set<SecretScrubber>();

/** Lets log lines of this process be scrubbed by `scrubber` too (until the returned function is called). */
export function attachLogScrubber(scrubber: SecretScrubber): () => void {
  logScrubbers.add(scrubber);
  return () => logScrubbers.delete(scrubber);
}

/**
 * Masks the secrets this process has registered or met in a string, synchronously: for log lines and
 * error messages built where waiting for Redis is not possible. Cards use {@link SecretScrubber.scrubTexts}.
 */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const scrubber of logScrubbers) out = scrubber.scrubKnown(out);
  return out;
}
