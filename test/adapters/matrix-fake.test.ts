/**
 * The fake homeserver itself: matrix-js-sdk runs against it unchanged, every request it sends is
 * valid against the published Client-Server API description, and a request the description does not
 * allow is caught (so a test using the fake fails on it).
 */
import { createClient as createSdkClient, type ICreateClientOpts, MatrixError, Method } from 'matrix-js-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { People } from '../fakes/matrix/people';
import { type FakeHomeserver, startFakeHomeserver } from '../fakes/matrix/server';
import { checkMatrixAnswer } from '../fakes/matrix/spec';

const quiet = () => undefined;
/** A silent SDK logger (the SDK logs every request at debug level by default). */
const logger = { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet, getChild: () => logger };
const createClient = (opts: ICreateClientOpts) => createSdkClient({ ...opts, logger });

describe('fake Matrix homeserver', () => {
  let fake: FakeHomeserver;
  let people: People;
  beforeAll(async () => {
    fake = await startFakeHomeserver();
    people = new People(fake);
  });
  afterAll(() => fake.close());

  it('logs in with a password, answers whoami, sends, edits, uploads and downloads', async () => {
    const login = createClient({ baseUrl: fake.url });
    const session = await login.loginRequest({
      type: 'm.login.password',
      identifier: { type: 'm.id.user', user: 'deckhand' },
      password: 'bot-password',
    });
    expect(session.user_id).toBe(fake.botUserId);
    const client = createClient({
      baseUrl: fake.url,
      accessToken: session.access_token,
      userId: session.user_id,
    });
    expect((await client.whoami()).user_id).toBe(fake.botUserId);
    const roomId = people.inviteBot('@ada:fake.test', 'ops');
    await client.http.authedRequest(Method.Post, `/join/${encodeURIComponent(roomId)}`, undefined, {});
    const sent = await client.sendEvent(
      roomId,
      'm.room.message' as never,
      { msgtype: 'm.text', body: 'hello' } as never,
    );
    await client.sendEvent(
      roomId,
      'm.room.message' as never,
      {
        msgtype: 'm.text',
        body: '* bye',
        'm.new_content': { msgtype: 'm.text', body: 'bye' },
        'm.relates_to': { rel_type: 'm.replace', event_id: sent.event_id },
      } as never,
    );
    const upload = await client.uploadContent(Buffer.from('bytes!'), { name: 'a.txt', type: 'text/plain' });
    expect(fake.state.media.get(upload.content_uri)?.data.toString()).toBe('bytes!');
    const shown = people.botMessages(roomId);
    expect(shown.map((m) => [m.body, m.edits])).toEqual([['bye', 1]]);
    expect(fake.violations).toEqual([]);
  });

  it('answers 429 with retry_after_ms, and the SDK scheduler sends the event again after it', async () => {
    const client = createClient({ baseUrl: fake.url, accessToken: fake.botToken, userId: fake.botUserId });
    const roomId = people.inviteBot('@ada:fake.test', 'limits');
    await client.http.authedRequest(Method.Post, `/rooms/${encodeURIComponent(roomId)}/join`, undefined, {});
    fake.rateLimit('sendMessage', 300);
    const started = Date.now();
    await client.sendEvent(roomId, 'm.room.message' as never, { msgtype: 'm.text', body: 'later' } as never);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(
      fake
        .callsOf('sendMessage')
        .slice(-2)
        .map((c) => c.status),
    ).toEqual([429, 200]);
    expect(people.botMessages(roomId).map((m) => m.body)).toEqual(['later']);
    expect(fake.violations).toEqual([]);
  });

  it('records a request the description does not allow, and refuses it', async () => {
    const client = createClient({ baseUrl: fake.url, accessToken: fake.botToken, userId: fake.botUserId });
    const roomId = people.inviteBot('@ada:fake.test', 'bad');
    await client.http.authedRequest(Method.Post, `/join/${encodeURIComponent(roomId)}`, undefined, {});
    const bad = client.sendEvent(roomId, 'm.room.message' as never, { body: 7 } as never);
    await expect(bad).rejects.toBeInstanceOf(MatrixError);
    await expect(
      client.http.authedRequest(Method.Get, '/sync', { timeout: 'soon' } as never),
    ).rejects.toBeInstanceOf(MatrixError);
    expect(fake.violations.join('\n')).toMatch(/body is not a string/);
    expect(fake.violations.join('\n')).toMatch(/query timeout/);
    fake.violations.length = 0;
  });

  it('checks its own answers against the description too (a drifted answer is a violation)', async () => {
    expect(await checkMatrixAnswer('sync', 200, { rooms: {} })).toEqual([
      "the fake's 200 answer to sync must have required property 'next_batch'",
    ]);
    expect(
      await checkMatrixAnswer('sendMessage', 429, {
        errcode: 'M_LIMIT_EXCEEDED',
        error: 'x',
        retry_after_ms: 5,
      }),
    ).toEqual([]);
    expect(await checkMatrixAnswer('getTokenOwner', 200, { device_id: 'D' })).not.toEqual([]);
  });
});
