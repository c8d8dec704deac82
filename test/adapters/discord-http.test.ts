import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ping, slashCommand } from '../fakes/discord';
import { type DiscordHarness, startDiscordHarness } from '../fakes/discord/harness';
import { debugOnFailure } from '../fakes/discord/inspect';
import { useFakePlatform } from '../support/started';
import { waitFor } from '../support/wait';

let h: DiscordHarness;
let endpoint: string;

useFakePlatform(
  () => startDiscordHarness({ mode: 'http' }),
  (started) => {
    h = started;
    endpoint = `${h.webUrl}/discord/interactions`;
  },
);

async function post(body: string, headers: Record<string, string>) {
  const response = await fetch(endpoint, { method: 'POST', headers, body });
  return { status: response.status, body: await response.text() };
}

describe('Discord adapter in HTTP interactions mode', () => {
  it('serves POST /discord/interactions instead of connecting to the gateway', () => {
    expect(h.adapter.mode).toBe('http');
    expect(h.fake.gateway.identifies).toEqual([]);
    expect(h.fake.requestsTo('GET', /^\/gateway/)).toEqual([]);
  });

  it('answers a correctly signed PING with a PONG', async () => {
    const body = JSON.stringify(ping(h.fake.identity.applicationId));
    const answer = await post(body, h.signed(body));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ type: 1 });
  });

  it('answers 401 to a bad, missing, foreign or replayed-with-another-body signature', async () => {
    const body = JSON.stringify(ping(h.fake.identity.applicationId));
    const good = h.signed(body);
    const tampered = await post(body.replace('"type":1', '"type": 1'), good);
    expect(tampered.status).toBe(401);
    const flipped = (good['x-signature-ed25519'] as string).replace(/^./, (c) => (c === '0' ? '1' : '0'));
    expect((await post(body, { ...good, 'x-signature-ed25519': flipped })).status).toBe(401);
    expect(
      (
        await post(body, {
          ...good,
          'x-signature-timestamp': String(Number(good['x-signature-timestamp']) + 1),
        })
      ).status,
    ).toBe(401);
    expect((await post(body, { 'content-type': 'application/json' })).status).toBe(401);
    const other = generateKeyPairSync('ed25519').privateKey;
    const ts = String(Math.floor(Date.now() / 1000));
    const foreign = sign(null, Buffer.from(ts + body), other).toString('hex');
    expect(
      (await post(body, { ...good, 'x-signature-timestamp': ts, 'x-signature-ed25519': foreign })).status,
    ).toBe(401);
  });

  it('answers 401 to a correctly signed interaction dated 3 days ago or 10 minutes ahead; a fresh one runs (5-minute window as in @slack/bolt 5.1.0 dist/receivers/verify-request.js)', async () => {
    const body = JSON.stringify(ping(h.fake.identity.applicationId));
    const now = Math.floor(Date.now() / 1000);
    const old = await post(body, h.signed(body, String(now - 3 * 86_400)));
    expect(old).toEqual({ status: 401, body: JSON.stringify({ error: 'stale request timestamp' }) });
    const ahead = await post(body, h.signed(body, String(now + 600)));
    expect(ahead.status).toBe(401);
    // Positive control: the same body signed now (and 4 minutes ago) is accepted.
    expect((await post(body, h.signed(body))).status).toBe(200);
    const recent = await post(body, h.signed(body, String(now - 240)));
    expect(recent).toEqual({ status: 200, body: JSON.stringify({ type: 1 }) });
  });

  it('runs a correctly signed /deploy: deferred in the HTTP response, the card ends successful', async () => {
    debugOnFailure(h);
    const payload = slashCommand(h.place(), 'deploy', { tool: 'mytool' });
    const started = Date.now();
    const answer = await h.fake.deliverHttp(endpoint, payload, (body) => h.signed(body));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ type: 5, data: { flags: 64 } });
    const card = await waitFor(() =>
      h.fake
        .channelMessages()
        .find((m) => m.via === 'bot' && (m.embeds[0] as { title?: string }).title === 'Deploy mytool'),
    );
    await waitFor(() => {
      const fields = (card.embeds[0] as { fields?: { name: string; value: string }[] }).fields ?? [];
      return fields.find((f) => f.name === 'Status')?.value === 'successful';
    }, 15_000);
    await waitFor(() => h.fake.requestsTo('DELETE', new RegExp(`${payload.token}/messages/@original$`))[0]);
  });

  it('answers with a modal when the command asks for a form', async () => {
    debugOnFailure(h);
    const payload = slashCommand(h.place(), 'envvars set', { tool: 'demo', name: 'SENTRY_DSN' });
    const answer = await h.fake.deliverHttp(endpoint, payload, (body) => h.signed(body));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ type: 9, data: { title: 'Set SENTRY_DSN of demo' } });
  });

  it('refuses a signed request delivered a second time', async () => {
    debugOnFailure(h);
    const payload = slashCommand(h.place(), 'help', {});
    const first = await h.fake.deliverHttp(endpoint, payload, (body) => h.signed(body));
    expect(first.status).toBe(200);
    const body = JSON.stringify(payload);
    const again = await post(body, h.signed(body));
    expect(again.status).toBe(409);
  });
});
