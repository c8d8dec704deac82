/**
 * Slack's word on a reader's language: `users.info` with `include_locale` (checked against Slack's
 * API description by the fake), asked once per person and kept in Redis for a day; it comes before
 * the person's `/language`, and a person Slack cannot say anything about falls back to it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALE_TTL_SECONDS } from '../../adapters/slack/locales';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { waitFor } from '../support/wait';

let bot: SlackBot;

beforeAll(async () => {
  bot = await startSlackBot();
}, 120_000);

afterAll(async () => {
  await bot?.close();
});

/** Types `/help` as `who` in `channel` and returns what they were shown (a private reply). */
async function help(who: { id: string; name: string }, channel: string): Promise<string> {
  const before = bot.fake.ephemerals.length;
  const delivery = await bot.driver.command(who, channel, '/help');
  expect(delivery.status).toBe(200);
  await bot.settled();
  const shown = await waitFor(() => bot.fake.ephemerals.slice(before).find((e) => e.user === who.id));
  return JSON.stringify(shown.body);
}

/** Someone no other case uses, so nothing is cached for them. */
const newcomer = { id: 'UNEWCOMER', name: 'nia' } as const;

const infoCalls = (user: string) => bot.fake.callsOf('users.info').filter((c) => c.form.user === user);

describe("a Slack reader's language", () => {
  it("is Slack's locale, asked once with users.info and kept in Redis with a TTL", async () => {
    bot.fake.locales.set(USERS.admin.id, 'de-DE');
    expect(await help(USERS.admin, 'CLOCALE1')).toContain('Deckhand-Befehle');
    expect(await help(USERS.admin, 'CLOCALE1')).toContain('Deckhand-Befehle');
    const calls = infoCalls(USERS.admin.id);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.form).toMatchObject({ user: USERS.admin.id, include_locale: 'true' });
    const prefix = bot.config.REDIS_KEY_PREFIX;
    const key = `${prefix}slack:locale:${bot.fake.options.teamId}:${USERS.admin.id}`;
    expect(await bot.app.redis.redis.get(key)).toBe('de-DE');
    const ttl = await bot.app.redis.redis.ttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(LOCALE_TTL_SECONDS);
    expect(bot.fake.violations).toEqual([]);
  });

  it("comes before the reader's /language, as the platform's word does", async () => {
    bot.fake.locales.set(USERS.maintainer.id, 'he-IL');
    const owner = `slack:${bot.fake.options.teamId}:${USERS.maintainer.id}`;
    await bot.app.services.languages?.setUser(owner, 'de');
    try {
      expect(await help(USERS.maintainer, 'CLOCALE2')).toContain('הפקודות של Deckhand');
    } finally {
      await bot.app.services.languages?.setUser(owner, undefined);
    }
  });

  it('falls back to /language when Slack will not say (no users:read scope), and asks again a day later', async () => {
    bot.fake.script('users.info', { error: 'missing_scope' });
    const owner = `slack:${bot.fake.options.teamId}:${USERS.stranger.id}`;
    await bot.app.services.languages?.setUser(owner, 'de');
    try {
      expect(await help(USERS.stranger, 'CLOCALE3')).toContain('Deckhand-Befehle');
      expect(await help(USERS.stranger, 'CLOCALE3')).toContain('Deckhand-Befehle');
      expect(infoCalls(USERS.stranger.id)).toHaveLength(1);
    } finally {
      await bot.app.services.languages?.setUser(owner, undefined);
    }
  });

  it('never holds a command up: a Slack that does not answer users.info is given up on, and asked again next time', async () => {
    const held = bot.fake.holdNext('users.info');
    const owner = `slack:${bot.fake.options.teamId}:${newcomer.id}`;
    await bot.app.services.languages?.setUser(owner, 'de');
    try {
      // The command is answered (in the person's /language) although Slack never answers: the
      // lookup gave up on its own (its connection closed), it did not wait for the SDK's retries.
      expect(await help(newcomer, 'CLOCALE4')).toContain('Deckhand-Befehle');
      expect(held.dropped).toBe(true);
      // Nothing was kept for a lookup that failed: the next command asks Slack again.
      bot.fake.locales.set(newcomer.id, 'he-IL');
      expect(await help(newcomer, 'CLOCALE4')).toContain('הפקודות של Deckhand');
      expect(infoCalls(newcomer.id)).toHaveLength(2);
    } finally {
      held.release();
      await bot.app.services.languages?.setUser(owner, undefined);
    }
  });
});
