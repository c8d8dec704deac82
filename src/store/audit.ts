/**
 * The audit trail: the change record of every side-effect command appended to one Redis stream (who,
 * platform, linked identity, conversation, command, arguments without secrets, outcome), capped at about
 * {@link AUDIT_MAX_ENTRIES} entries. Read newest first, optionally for one tool.
 *
 * Before an entry reaches Redis its free text — the tool argument, the other arguments, the display
 * name — is scrubbed: registered secrets are masked (the secret index), and so is any word that looks
 * like a credential by its shape ({@link looksLikeSecret}), since a token pasted into the wrong
 * argument (`/deploy <token>`) is registered nowhere.
 */
import type { Redis } from 'ioredis';
import type { CardLink, ChangeRecord } from '../core/change-record';
import { maskSpans } from '../secret-match';
import { looksLikeSecret, type SecretScrubber } from '../secrets';

/** Roughly how many entries the stream keeps (older ones are trimmed). */
export const AUDIT_MAX_ENTRIES = 10_000;

/** One audited command run: the change record (see `src/core/change-record.ts`), stored as it is. */
export type AuditEntry = ChangeRecord;

/** The audit stream in Redis. */
export class AuditLog {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'dh:',
    private readonly secrets?: SecretScrubber,
  ) {}

  /**
   * Appends an entry, its free text scrubbed of secrets (see the module comment); resolves with the
   * entry as stored, for readers that pass it on (the Server Admin Log).
   */
  async append(entry: AuditEntry): Promise<AuditEntry> {
    const raw = [entry.tool ?? '', JSON.stringify(entry.args), entry.name];
    const known = this.secrets ? await this.secrets.scrubTexts(raw) : raw;
    const [tool, args, name] = known.map(maskCredentialShapes) as [string, string, string];
    const identity = entry.identity ? maskCredentialShapes(entry.identity) : undefined;
    await this.redis.xadd(
      this.key(),
      'MAXLEN',
      '~',
      String(AUDIT_MAX_ENTRIES),
      '*',
      'id',
      entry.id,
      'at',
      String(entry.at),
      'platform',
      entry.platform,
      'user',
      entry.user,
      'name',
      name,
      'conversation',
      entry.conversationId,
      'command',
      entry.command,
      'tool',
      tool,
      'args',
      args,
      'outcome',
      entry.outcome,
      ...(identity ? ['identity', identity] : []),
      ...(entry.card ? ['card', JSON.stringify(entry.card)] : []),
    );
    return storedEntry(entry, { tool, args, name, identity });
  }

  /** The newest entries first, at most `limit`, only those of `tool` when given. */
  async recent(options: { tool?: string; limit: number }): Promise<AuditEntry[]> {
    const found: AuditEntry[] = [];
    let end = '+';
    for (let scanned = 0; scanned < AUDIT_MAX_ENTRIES * 2 && found.length < options.limit; scanned += 200) {
      const batch = await this.redis.xrevrange(this.key(), end, '-', 'COUNT', 200);
      for (const [id, fields] of batch) {
        if (id === end) continue;
        const entry = parseEntry(id, fields);
        if (!options.tool || entry.tool === options.tool) found.push(entry);
        if (found.length >= options.limit) break;
      }
      if (batch.length < 200) break;
      end = (batch.at(-1) as [string, string[]])[0];
    }
    return found;
  }

  private key(): string {
    return `${this.prefix}audit`;
  }
}

/** `text` with every run of token characters that looks like a credential masked. */
export function maskCredentialShapes(text: string): string {
  const spans: { start: number; end: number }[] = [];
  for (const match of text.matchAll(/[A-Za-z0-9\-_.~+/:]+=*/g)) {
    if (looksLikeSecret(match[0])) spans.push({ start: match.index, end: match.index + match[0].length });
  }
  return maskSpans(text, spans);
}

/** `entry` with its free text as stored (scrubbed). */
function storedEntry(
  entry: AuditEntry,
  scrubbed: { tool: string; args: string; name: string; identity: string | undefined },
): AuditEntry {
  const { identity: _identity, tool: _tool, ...rest } = entry;
  return {
    ...rest,
    name: scrubbed.name,
    args: parseArgs(scrubbed.args),
    ...(scrubbed.tool ? { tool: scrubbed.tool } : {}),
    ...(scrubbed.identity ? { identity: scrubbed.identity } : {}),
  };
}

function parseArgs(text: string | undefined): Record<string, unknown> {
  try {
    return JSON.parse(text ?? '{}') as Record<string, unknown>;
  } catch {
    return {};
  }
}

function parseEntry(id: string, fields: string[]): AuditEntry {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i] as string, fields[i + 1] as string);
  const tool = map.get('tool');
  const identity = map.get('identity');
  const card = parseCard(map.get('card'));
  return {
    id: map.get('id') ?? id,
    at: Number(map.get('at') ?? 0),
    platform: map.get('platform') ?? '',
    user: map.get('user') ?? '',
    name: map.get('name') ?? '',
    ...(identity ? { identity } : {}),
    conversationId: map.get('conversation') ?? '',
    command: map.get('command') ?? '',
    ...(tool ? { tool } : {}),
    args: parseArgs(map.get('args')),
    outcome: map.get('outcome') ?? '',
    ...(card ? { card } : {}),
  };
}

/** The card link of a stored entry (an entry without one, or one this version cannot read: none). */
function parseCard(raw: string | undefined): CardLink | undefined {
  if (!raw) return undefined;
  try {
    const card = JSON.parse(raw) as CardLink;
    return typeof card.platform === 'string' && typeof card.conversationId === 'string' ? card : undefined;
  } catch {
    return undefined;
  }
}
