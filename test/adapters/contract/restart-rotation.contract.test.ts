/**
 * Sealed state across a restart with a rotated `SECRET_KEY`: Deckhand stops, starts again with a new
 * `SECRET_KEY` and the old one as `SECRET_KEY_PREVIOUS`, on the same Redis. A Slack workspace
 * installed before keeps answering with its own token, and a Telegram form whose secret answer was
 * given before the restart finishes with that answer. Each record is then sealed under the new key.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { keyId, parseKey } from '../../../src/store/sealer';
import { FakeSlack } from '../../fakes/slack';
import { SIGNING_SECRET, type SlackBot, startSlackBot, USERS } from '../../fakes/slack/harness';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram';
import { startTelegramDeckhand, type TelegramDeckhand } from '../../fakes/telegram-harness';
import { testPrefix } from '../../support/redis';
import { testCommand } from '../../support/test-commands';
import { waitFor } from '../../support/wait';

/** Two starts of a whole Deckhand per case: generous, for a machine with every core busy. */
const CASE_MS = 180_000;
const WAIT_MS = 30_000;

const OLD_KEY = randomBytes(32).toString('hex');
const NEW_KEY = randomBytes(32).toString('hex');
const BEFORE = { SECRET_KEY: OLD_KEY };
const ROTATED = { SECRET_KEY: NEW_KEY, SECRET_KEY_PREVIOUS: OLD_KEY };

/** The id of the key a stored value in the current format was sealed with. */
const sealedWith = (stored: string | null | undefined) => stored?.split('.')[1];

const running: { close(): Promise<void> }[] = [];
const fakes: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const process of running) await process.close().catch(() => undefined);
  for (const fake of fakes) await fake.close();
});

/** Stops a running process (the restart's first half). */
async function stop(process: { close(): Promise<void> }): Promise<void> {
  running.splice(running.indexOf(process), 1);
  await process.close();
}

describe('sealed state survives a restart and a key rotation', () => {
  it(
    'slack: an installed workspace is answered with its token after the restart',
    async () => {
      const fake = await FakeSlack.start();
      fakes.push(fake);
      const prefix = testPrefix();
      const oauth = {
        SLACK_BOT_TOKEN: '',
        SLACK_CLIENT_ID: fake.oauthApp.clientId,
        SLACK_CLIENT_SECRET: fake.oauthApp.clientSecret,
        SLACK_STATE_SECRET: 'state-secret-0123456789abcdef',
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
      };
      const first: SlackBot = await startSlackBot({ fake, prefix, env: { ...oauth, ...BEFORE } });
      running.push(first);
      const base = first.eventsUrl.replace('/slack/events', '');
      const install = await fetch(`${base}/slack/install`, { redirect: 'manual' });
      const state = new URL(install.headers.get('location') ?? '').searchParams.get('state') ?? '';
      const cookie = (install.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const { code, token } = fake.approveInstall('T0ROTATE');
      const callback = await fetch(`${base}/slack/oauth_redirect?code=${code}&state=${state}`, {
        headers: { cookie },
        redirect: 'manual',
      });
      expect(callback.status).toBe(200);
      const recordKey = `${prefix}slack:installation:T:T0ROTATE`;
      expect(sealedWith(await first.app.redis.redis.get(recordKey))).toBe(keyId(parseKey(OLD_KEY)));
      await stop(first);

      const second = await startSlackBot({ fake, prefix, env: { ...oauth, ...ROTATED } });
      running.push(second);
      const fields = {
        ...second.driver.commandFields(USERS.maintainer, 'C0ROTATE', '/help'),
        team_id: 'T0ROTATE',
      };
      expect((await second.driver.sendCommand(fields)).status).toBe(200);
      const answer = await waitFor(
        () => fake.calls.find((c) => c.method.startsWith('chat.') && c.form.channel === 'C0ROTATE'),
        WAIT_MS,
      );
      expect(answer.token).toBe(token);
      const stored = await second.app.redis.redis.get(recordKey);
      expect(sealedWith(stored)).toBe(keyId(parseKey(NEW_KEY)));
      expect(stored ?? '').not.toContain(token);
    },
    CASE_MS,
  );

  it(
    'telegram: a form answered in part before the restart finishes after it, secret included',
    async () => {
      const received: Record<string, unknown>[] = [];
      const form = testCommand({
        name: 'rotateform',
        summary: 'A two-step form with a secret (restart test)',
        args: z.object({ password: z.string().optional(), title: z.string().optional() }),
        sideEffect: true,
        secretArgs: ['password'],
        async run({ args, openForm }) {
          if (!args.title) {
            await openForm({
              title: 'Rotated form',
              fields: [
                { name: 'password', label: 'Calendar password', secret: true },
                { name: 'title', label: 'Event title' },
              ],
              command: 'rotateform',
              args: {},
            });
            return undefined;
          }
          received.push(args);
          return { text: `Posted ${args.title}.`, status: 'success' };
        },
      });
      const fake: FakeTelegram = await startFakeTelegram();
      fakes.push(fake);
      const prefix = testPrefix();
      const options = { fake, prefix, commands: [form] as never };
      const first: TelegramDeckhand = await startTelegramDeckhand({ ...options, env: BEFORE });
      running.push(first);
      const dm = fake.privateChat(first.users.admin);
      fake.sendText(first.users.admin, dm, '/start');
      await waitFor(() => fake.botMessages(dm.id).length > 0, WAIT_MS);
      fake.sendText(first.users.admin, dm, '/rotateform');
      await waitFor(() => fake.botMessages(dm.id).find((m) => m.text.includes('Calendar password')), WAIT_MS);
      const secret = 'cal-pass-rotated-4f3e2d1c';
      fake.sendText(first.users.admin, dm, secret);
      await waitFor(() => fake.botMessages(dm.id).find((m) => m.text.includes('Event title')), WAIT_MS);
      const formKeys = await first.app.redis.redis.keys(`${prefix}tg:form:*`);
      expect(formKeys).toHaveLength(1);
      const before = await first.app.redis.redis.get(formKeys[0] as string);
      expect(before ?? '').not.toContain(secret);
      await stop(first);

      const second = await startTelegramDeckhand({ ...options, env: ROTATED });
      running.push(second);
      fake.sendText(second.users.admin, dm, 'Launch party');
      await waitFor(
        () => fake.botMessages(dm.id).find((m) => m.text.includes('Posted Launch party.')),
        WAIT_MS,
      );
      expect(received).toEqual([{ password: secret, title: 'Launch party' }]);
    },
    CASE_MS,
  );
});
