/**
 * The fake Discord's `GET /applications/@me`: the application as the spec describes it
 * (PrivateApplicationResponse, specs/platforms/discord-openapi.json), with the Interactions Endpoint
 * URL a test sets as an operator would in the Developer Portal, and bot authorization required.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord';
import { checkDiscordSchema } from '../fakes/discord/spec';

let discord: FakeDiscord;

beforeAll(async () => {
  discord = await startFakeDiscord();
}, 30_000);
afterAll(() => discord?.close());

const me = (token: string) =>
  fetch(`${discord.apiUrl}/v10/applications/@me`, { headers: { authorization: `Bot ${token}` } });

describe('fake Discord: GET /applications/@me', () => {
  it('answers the application, matching the spec, with the endpoint URL and public key', async () => {
    const none = await me(discord.token);
    expect(none.status).toBe(200);
    const body = (await none.json()) as Record<string, unknown>;
    expect(await checkDiscordSchema('PrivateApplicationResponse', body)).toEqual([]);
    expect(body).toMatchObject({
      id: discord.identity.applicationId,
      interactions_endpoint_url: null,
      verify_key: discord.application.verifyKey,
    });
    discord.application.interactionsEndpointUrl = 'https://deckhand.example/discord/interactions';
    const set = (await (await me(discord.token)).json()) as Record<string, unknown>;
    expect(await checkDiscordSchema('PrivateApplicationResponse', set)).toEqual([]);
    expect(set.interactions_endpoint_url).toBe('https://deckhand.example/discord/interactions');
    expect(discord.violations).toEqual([]);
  });

  it('refuses a wrong bot token with 401 (and records it)', async () => {
    const refused = await me('not-the-token');
    expect(refused.status).toBe(401);
    expect(discord.violations.at(-1)).toMatch(/applications\/@me: missing or wrong bot authorization/);
  });

  it('the schema check itself fails on a body missing a required field', async () => {
    const errors = await checkDiscordSchema('PrivateApplicationResponse', { id: '1', name: 'x' });
    expect(errors.join('\n')).toContain('verify_key');
  });
});
