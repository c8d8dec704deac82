/**
 * Personal notifications end to end on the sandbox: a deployment started by A on one platform ends,
 * and A gets one direct message on the platform A chose (their account there known through the
 * linked identity); B, who started nothing, gets none. Work shorter than a minute sends nothing; in
 * A's quiet hours only a failure does, and only when A let failures break through.
 *
 * How long a deployment "ran" is set by moving its recorded start two minutes back while the sandbox
 * holds the deployment running (the sandbox's deployments take a second, not minutes).
 */

import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CardSurface } from '../../src/core/card-surface';
import type { ChatUser, MessageHandle } from '../../src/core/command';
import type { Starter } from '../../src/core/personal-notify';
import type { Card } from '../../src/core/reply';
import { settled, type TestApp } from '../support/app';
import { invocationAt } from '../support/invocation';
import { useToolhostApp } from '../support/toolhost-app';
import { waitFor } from '../support/wait';

let t: TestApp;
let sandbox: ToolhostSandbox;

useToolhostApp((started) => {
  ({ t, sandbox } = started);
});

/** A on the chat platform the tests type on (a maintainer of mytool), and A's account on a second one. */
const adaHere: ChatUser = { platform: 'slack', workspace: 'T1', id: 'UMAINT', name: 'UMAINT' };
const adaThere: ChatUser = { platform: 'telegram', workspace: '777', id: '4242', name: 'Ada' };

/** Every direct conversation opened and every card posted through the messengers, by conversation. */
const posts: { conversationId: string; card: Card }[] = [];
const opened: ChatUser[] = [];

function fakeMessenger(platform: 'slack' | 'telegram', direct: (user: ChatUser) => string) {
  let counter = 0;
  return {
    async post(conversationId: string, card: Card) {
      posts.push({ conversationId, card });
      counter += 1;
      return { platform, conversationId, ref: { ts: String(counter) } };
    },
    async update() {},
    async openDirect(user: ChatUser) {
      opened.push(user);
      return direct(user);
    },
    async linkTo(handle: MessageHandle) {
      return `https://chat.example/${handle.conversationId}/${handle.ref.ts}`;
    },
  };
}

const directMessages = () => posts.filter((p) => /:D-|^telegram:/.test(p.conversationId));

/** Runs a command as `user` (in a private chat with the bot). */
async function sayAs(user: ChatUser, text: string): Promise<Card[]> {
  const out: Card[] = [];
  const place = { platform: user.platform, workspace: user.workspace, channel: user.id, private: true };
  const invocation = invocationAt(place, user);
  const surface: CardSurface = {
    async reply(card) {
      out.push(card);
      return { platform: user.platform, conversationId: invocation.conversationId, ref: { ts: '1' } };
    },
    async update() {},
    async openForm() {},
  };
  await t.app.runner.handleText(text, invocation, surface);
  return out;
}

/** Starter records of watches started after `since` (one per deployment). */
async function startersSince(since: number): Promise<{ key: string; starter: Starter }[]> {
  const redis = t.app.redis.redis;
  const keys = await redis.keys(`${t.app.services.config.REDIS_KEY_PREFIX}watch-starter:*`);
  const found = await Promise.all(
    keys.map(async (key) => ({ key, starter: JSON.parse((await redis.get(key)) ?? '{}') as Starter })),
  );
  return found.filter((f) => f.starter.startedAt >= since);
}

/**
 * A deployment of mytool by A: held running until its recorded start is two minutes back (`long`),
 * then (with `fail`) held past the sandbox's deployment timeout so it ends timed out, a failure.
 */
async function deploy(options: { long: boolean; fail?: boolean }): Promise<void> {
  const since = Date.now();
  sandbox.controls.holdDeployments(true);
  const [reply] = await t.say('/deploy mytool', { user: 'UMAINT' });
  expect(reply?.title).toContain('Deploy mytool');
  const [record] = await waitFor(async () => {
    const found = await startersSince(since);
    return found.length > 0 ? found : undefined;
  }, 20_000);
  if (!record) throw new Error('no starter recorded');
  expect(record.starter.user.id).toBe('UMAINT');
  expect(record.starter.conversationId).toBe('slack:T1:C1');
  if (options.long) {
    const moved = { ...record.starter, startedAt: record.starter.startedAt - 120_000 };
    await t.app.redis.redis.set(record.key, JSON.stringify(moved), 'KEEPTTL');
  }
  // The sandbox times a deployment out 200 steps (of SANDBOX_STEP_MS) after it was created.
  if (options.fail) await waitFor(() => Date.now() - since > 200 * 20 + 500, 20_000);
  sandbox.controls.holdDeployments(false);
  await settled(t.app);
}

/** A UTC range of quiet hours around now. */
function quietAroundNow(): string {
  const now = DateTime.utc();
  const fmt = (d: DateTime) => d.toFormat('HH:mm');
  return `${fmt(now.minus({ hours: 2 }))}-${fmt(now.plus({ hours: 2 }))}`;
}

beforeAll(async () => {
  t.app.messengers.register(
    'slack',
    fakeMessenger('slack', (user) => `slack:${user.workspace}:D-${user.id}`),
  );
  t.app.messengers.register(
    'telegram',
    fakeMessenger('telegram', (user) => `telegram:${user.workspace}:${user.id}`),
  );
  // A linked the same source-host account on both platforms: one identity.
  const vault = t.app.services.accounts.vault;
  for (const account of [adaHere, adaThere]) {
    await vault.put(account, 'source', { secret: { token: 'test-token-ada' }, meta: { login: 'ada' } });
  }
});

describe('a direct message to whoever started the work', () => {
  it('shows the defaults, and keeps the choice of platform with the linked identity', async () => {
    const [shown] = await sayAs(adaHere, '/notify');
    expect(shown?.fields?.[0]?.value).toMatch(/^on:/);
    expect(shown?.footer).toContain('Kept with your linked account');
    const [bad] = await sayAs(adaHere, '/notify me on --via fax');
    expect(bad?.text).toContain('Deckhand cannot send direct messages on fax');
    const before = await t.app.services.notifications.settingsOf(adaHere);
    for (const [line, says] of [
      ['/notify me maybe', 'notify me takes on or off, not maybe'],
      ['/notify quiet', 'notify quiet needs a value'],
      ['/notify me off --zone UTC', '--zone and --break-through go with'],
      ['/notify quiet 22:00-07:00 --via here', '--via goes with'],
      ['/notify quiet 7pm-7am', 'is not a range of times'],
    ] as const) {
      const [answer] = await sayAs(adaHere, line);
      expect(answer?.text, line).toContain(says);
    }
    // Bad input changed nothing.
    expect(await t.app.services.notifications.settingsOf(adaHere)).toEqual(before);
    // Chosen on the second platform: Deckhand learns A's account there.
    const [chosen] = await sayAs(adaThere, '/notify me on --via telegram');
    expect(chosen?.status).toBe('success');
    expect(chosen?.text).toContain('On Telegram: only after you opened a private chat with the bot');
    // What the platform needs is said in the reader's language.
    await sayAs(adaThere, '/language de');
    const [german] = await sayAs(adaThere, '/notify me on --via telegram');
    expect(german?.text).toContain('Auf Telegram: erst nachdem du einen privaten Chat mit dem Bot geöffnet');
    await sayAs(adaThere, '/language default');
    // Read back on the first platform: the same settings (the identity, not the chat account).
    const settings = await t.app.services.notifications.settingsOf(adaHere);
    expect(settings.via).toBe('telegram');
    expect(settings.accounts.telegram?.id).toBe('4242');
    // `/notify` alone, typed from a third linked account, makes that account known too.
    const adaElsewhere: ChatUser = { platform: 'discord', workspace: 'G1', id: '99', name: 'Ada' };
    await t.app.services.accounts.vault.put(adaElsewhere, 'source', {
      secret: { token: 'test-token-ada' },
      meta: { login: 'ada' },
    });
    await sayAs(adaElsewhere, '/notify');
    const seen = await t.app.services.notifications.settingsOf(adaHere);
    expect(Object.keys(seen.accounts).sort()).toEqual(['discord', 'slack', 'telegram']);
    expect(seen.via).toBe('telegram');
  });

  it('sends nothing for work under a minute; the same deployment running two minutes → one direct message on the preferred platform', async () => {
    posts.length = 0;
    await deploy({ long: false });
    expect(directMessages()).toEqual([]);
    // Positive control: the same flow, longer.
    await deploy({ long: true });
    const dms = directMessages();
    expect(dms.map((d) => d.conversationId)).toEqual(['telegram:777:4242']);
    expect(dms[0]?.card.title).toBe('mytool: deployment successful');
    expect(dms[0]?.card.text).toContain('Work you started ended');
    // The link to the deployment's card where A started it (on the other platform).
    expect(dms[0]?.card.links?.find((l) => l.label === 'Open its card')?.url).toMatch(
      /^https:\/\/chat\.example\/slack:T1:C1\/\d+$/,
    );
    // B (anyone but A) got nothing: every direct conversation opened was A's on the preferred platform.
    expect(opened.every((user) => user.id === '4242' && user.platform === 'telegram')).toBe(true);
  });

  it('holds back in quiet hours; a failure breaks through only when A said so', async () => {
    const [set] = await sayAs(adaHere, `/notify quiet ${quietAroundNow()} --zone UTC`);
    expect(set?.status).toBe('success');
    const [badRange] = await sayAs(adaHere, '/notify quiet 22:00');
    expect(badRange?.text).toContain('is not a range of times');
    posts.length = 0;
    await deploy({ long: true });
    await deploy({ long: true, fail: true });
    expect(directMessages()).toEqual([]);
    await sayAs(adaHere, `/notify quiet ${quietAroundNow()} --zone UTC --break-through failures`);
    await deploy({ long: true, fail: true });
    const dms = directMessages();
    expect(dms).toHaveLength(1);
    expect(dms[0]?.conversationId).toBe('telegram:777:4242');
    expect(dms[0]?.card.title).toMatch(/^mytool: deployment timed.out$/);
  }, 120_000);

  it('B, who started nothing, gets nothing; A turned off gets nothing either', async () => {
    await sayAs(adaHere, '/notify quiet off');
    await sayAs(adaHere, '/notify me off');
    posts.length = 0;
    opened.length = 0;
    await deploy({ long: true });
    expect(directMessages()).toEqual([]);
    expect(opened).toEqual([]);
    const admin = await t.app.services.notifications.settingsOf({
      platform: 'slack',
      workspace: 'T1',
      id: 'UADMIN',
      name: 'UADMIN',
    });
    expect(admin.personal).toBe(true);
  }, 60_000);
});
