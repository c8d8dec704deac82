/**
 * Slack users' locales: Slack says a person's language only through `users.info` with
 * `include_locale` (`user.locale`, e.g. `de-DE`), so it is asked once per person and kept in Redis
 * for a day. The cached value is read beside the request's first Redis command (the delivery claim),
 * so a known person costs no extra round trip; an unknown one costs one `users.info` call (at most
 * `LOOKUP_TIMEOUT_MS`) before the command is queued, answered in their language from the first time.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { SlackClients } from './clients';
import { slackErrorCode } from './messenger';

/** How long a person's locale is kept before Slack is asked again (they may change it). */
export const LOCALE_TTL_SECONDS = 24 * 3600;

/** Kept for a person Slack said no locale for (or would not say): asked again only after the TTL. */
const UNKNOWN = '-';

/** Slack's answers that will not change by asking again soon (anything else is asked again next time). */
const SETTLED_ERRORS: ReadonlySet<string> = new Set(['missing_scope', 'user_not_found', 'user_not_visible']);

/** What {@link SlackLocales} needs. */
export interface SlackLocalesDeps {
  redis: Redis;
  prefix: string;
  clients: SlackClients;
  logger: Logger;
  ttlSeconds?: number;
}

/** A read of a person's cached locale, started with the request's first Redis command. */
export interface LocaleRead {
  teamId: string;
  userId: string;
  /** The cached value: a locale, {@link UNKNOWN}, or null when nothing is cached. */
  cached: Promise<string | null>;
}

/** The locales of Slack users, from the cache or `users.info`. */
export class SlackLocales {
  private readonly ttl: number;

  constructor(private readonly deps: SlackLocalesDeps) {
    this.ttl = deps.ttlSeconds ?? LOCALE_TTL_SECONDS;
  }

  private key(teamId: string, userId: string): string {
    return `${this.deps.prefix}slack:locale:${teamId}:${userId}`;
  }

  /**
   * Starts reading a person's cached locale at once (call it in the same turn as the request's
   * first Redis command, so both travel together); {@link settle} finishes it.
   */
  start(teamId: string, userId: string): LocaleRead {
    const cached = this.deps.redis.get(this.key(teamId, userId));
    cached.catch(() => undefined);
    return { teamId, userId, cached };
  }

  /** The person's locale: the cached one, else Slack's answer (then cached); undefined when unknown. */
  async settle(read: LocaleRead): Promise<string | undefined> {
    const cached = await read.cached.catch(() => undefined);
    if (cached === UNKNOWN) return undefined;
    if (cached) return cached;
    const answer = await this.ask(read.teamId, read.userId);
    if (answer.settled)
      this.deps.redis
        .set(this.key(read.teamId, read.userId), answer.locale ?? UNKNOWN, 'EX', this.ttl)
        .catch((error: unknown) => this.deps.logger.debug({ err: error }, 'Slack locale not cached'));
    return answer.locale;
  }

  /**
   * `users.info` with the locale, on the `lookup` client (no retries, a short timeout: the command
   * goes on in the person's `/language` rather than wait). `settled` is false when Slack failed for a
   * while (an outage, a rate limit, too slow): nothing is cached then, the next request asks again.
   */
  private async ask(teamId: string, userId: string): Promise<{ locale?: string; settled: boolean }> {
    try {
      const { client } = await this.deps.clients.forTeam(teamId, { purpose: 'lookup' });
      const answer = await client.users.info({ user: userId, include_locale: true });
      const locale = (answer.user as { locale?: string } | undefined)?.locale;
      return locale ? { locale, settled: true } : { settled: true };
    } catch (error) {
      const code = slackErrorCode(error);
      this.deps.logger.warn({ err: error, teamId, code }, "Slack did not say a user's locale");
      return { settled: code !== undefined && SETTLED_ERRORS.has(code) };
    }
  }
}
