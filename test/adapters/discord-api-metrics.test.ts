import { describe, expect, it } from 'vitest';
import { discordRouteLabel } from '../../adapters/discord/api-metrics';
import { ackDuration, chatApiCalls, chatApiErrors, chatApiRateLimited } from '../../src/metrics';
import { slashCommand } from '../fakes/discord';
import { type DiscordHarness, startDiscordHarness } from '../fakes/discord/harness';
import { botMessages, embedOf } from '../fakes/discord/inspect';
import { counterValue, histogramCount } from '../support/metric-values';
import { useFakePlatform } from '../support/started';
import { waitFor } from '../support/wait';

let h: DiscordHarness;

useFakePlatform(startDiscordHarness, (started) => {
  h = started;
});

const POST_MESSAGE = { platform: 'discord', method: 'POST /channels/:id/messages' };
const MESSAGES = /^\/channels\/\d+\/messages$/;

describe("Discord API metrics from discord.js REST's response event", () => {
  it('counts every attempt by route template, a 429 as rate-limited, and times the first answer', async () => {
    const before = {
      calls: await counterValue(chatApiCalls, POST_MESSAGE),
      limited: await counterValue(chatApiRateLimited, POST_MESSAGE),
      errors: await counterValue(chatApiErrors, POST_MESSAGE),
      acks: await histogramCount(ackDuration, { platform: 'discord' }),
      attempts: h.fake.requestsTo('POST', MESSAGES).length,
    };
    const shown = botMessages(h.fake).length;
    h.fake.rateLimitNext('POST', MESSAGES, 0.4);
    const interaction = h.fake.interact(
      slashCommand(h.place(), 'jobs show', { tool: 'demo', job: 'nightly' }),
    );
    await waitFor(() =>
      botMessages(h.fake)
        .slice(shown)
        .find((m) => embedOf(m).title === 'Job nightly of demo'),
    );
    await waitFor(() => interaction.callbacks[0]);
    const attempts = h.fake.requestsTo('POST', MESSAGES).length - before.attempts;
    expect(attempts).toBe(2);
    await waitFor(
      async () => (await counterValue(chatApiCalls, POST_MESSAGE)) === before.calls + attempts || undefined,
    );
    expect(await counterValue(chatApiRateLimited, POST_MESSAGE)).toBe(before.limited + 1);
    // A 429 is a rate limit, not an error.
    expect(await counterValue(chatApiErrors, POST_MESSAGE)).toBe(before.errors);
    await waitFor(
      async () =>
        (await histogramCount(ackDuration, { platform: 'discord' })) === before.acks + 1 || undefined,
    );
  });

  it('labels by route template: no ids, no interaction or webhook tokens', () => {
    expect(discordRouteLabel('post', '/channels/:id/messages')).toBe('POST /channels/:id/messages');
    expect(discordRouteLabel('PATCH', '/channels/123/messages/456')).toBe('PATCH /channels/:id/messages/:id');
    expect(discordRouteLabel('POST', '/interactions/:id/:token/callback')).toBe(
      'POST /interactions/:id/:token/callback',
    );
    expect(discordRouteLabel('PATCH', '/webhooks/:id/aW50ZXJhY3Rpb24tdG9rZW4/messages/@original')).toBe(
      'PATCH /webhooks/:id/:token/messages/@original',
    );
    expect(discordRouteLabel('PATCH', '/webhooks/1234/aW50ZXJhY3Rpb24tdG9rZW4/messages/@original')).toBe(
      'PATCH /webhooks/:id/:token/messages/@original',
    );
  });
});
