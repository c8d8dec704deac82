/**
 * Delivery on a real IRC network: long cards within the server's byte limit, the flood control's
 * pace, a kick (the channel is gone, announcements stop), and an ircd restart (back and re-joined).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IrcAdminLogOutbox } from '../../../adapters/irc/admin-log';
import { ircConversationId } from '../../../adapters/irc/surface';
import type { MessageHandle } from '../../../src/core/command';
import type { WatchEvent } from '../../../src/core/watch';
import { deliverJob } from '../../../src/queue/notify-processor';
import { deliverQueueOf } from '../../../src/queue/queues';
import { type IrcDeckhand, startIrcDeckhand } from '../../support/irc-deckhand';
import { startTestIrcNetwork, type TestIrcNetwork } from '../../support/irc-network';
import { connectHuman, type Human } from '../../support/irc-users';
import { waitFor } from '../../support/wait';

const FLOOD = '#flood';
const KICK = '#kickme';
const BURST = 4;
const INTERVAL_MS = 200;

describe('IRC delivery on a real network', () => {
  let network: TestIrcNetwork;
  let deckhand: IrcDeckhand;
  let op: Human;

  beforeAll(async () => {
    // A high fakelag threshold, so the pace measured is the bot's own, not the server's.
    network = await startTestIrcNetwork({ floodThreshold: 1000 });
    op = await connectHuman(network, { nick: 'chanop' });
    await op.join(KICK); // the first to join a channel is its operator
    deckhand = await startIrcDeckhand(network, {
      channels: [FLOOD, KICK],
      env: { IRC_FLOOD_BURST: String(BURST), IRC_FLOOD_INTERVAL_MS: String(INTERVAL_MS) },
    });
    await op.join(FLOOD);
  });
  afterAll(async () => {
    await op?.quit();
    await deckhand?.close();
    await network?.stop();
  });

  const bot = () => deckhand.adapter.link?.client.user.nick as string;
  const conversation = (channel: string) => ircConversationId(deckhand.adapter.network, channel);
  const post = (channel: string, card: Parameters<IrcDeckhand['app']['publisher']['post']>[1]) =>
    deckhand.app.publisher.post(conversation(channel), card) as Promise<MessageHandle>;

  it('shows a 2,000-character card as at most three lines within the byte limit, whole on its web page', async () => {
    const before = op.linesFrom(bot(), FLOOD).length;
    const text = `${'é'.repeat(999)}ü${'€'.repeat(999)}END`;
    await post(FLOOD, { title: 'Long card', text, status: 'info' });
    const lines = await waitFor(() => {
      const now = op.linesFrom(bot(), FLOOD).slice(before);
      return now.some((l) => l.includes('/cards/')) ? now : undefined;
    });
    expect(lines.length).toBeLessThanOrEqual(3);
    const self = deckhand.adapter.link?.self() as { nick: string; username: string; host: string };
    for (const line of lines) {
      expect(line).not.toContain('\ufffd'); // no character cut in half
      expect(
        Buffer.byteLength(`:${self.nick}!~${self.username}@${self.host} PRIVMSG ${FLOOD} :${line}`),
      ).toBeLessThanOrEqual(510);
    }
    const url = /(http:\/\/\S+\/cards\/[\w-]{22})/.exec(lines.join(' '))?.[1] as string;
    const page = await (await fetch(url)).text();
    expect(page).toContain(text);
  });

  it('splits a 2,000-character line at the byte limit on character boundaries, losing nothing', async () => {
    const before = op.linesFrom(bot(), FLOOD).length;
    const line = `${'ä'.repeat(1000)}${'𝄞'.repeat(250)}${'x'.repeat(750)}`;
    await new IrcAdminLogOutbox(deckhand.adapter.messenger, deckhand.adapter.network).enqueue(
      FLOOD,
      line,
      'split-1',
    );
    const pieces = await waitFor(() => {
      const now = op.linesFrom(bot(), FLOOD).slice(before);
      return now.join('') === line ? now : undefined;
    });
    expect(pieces.length).toBeGreaterThan(4);
    const self = deckhand.adapter.link?.self() as { nick: string; username: string; host: string };
    for (const piece of pieces)
      expect(
        Buffer.byteLength(`:${self.nick}!~${self.username}@${self.host} PRIVMSG ${FLOOD} :${piece}`),
      ).toBeLessThanOrEqual(510);
    // The same id again adds nothing.
    await new IrcAdminLogOutbox(deckhand.adapter.messenger, deckhand.adapter.network).enqueue(
      FLOOD,
      line,
      'split-1',
    );
    await post(FLOOD, { text: 'after the split' });
    await waitFor(() => op.linesFrom(bot(), FLOOD).some((l) => l.includes('after the split')));
    const after = op.linesFrom(bot(), FLOOD).slice(before);
    expect(after.filter((l) => !l.includes('after the split'))).toEqual(pieces);
  });

  it('paces 100 announcements to one channel within the configured burst and rate', async () => {
    const arrivals: number[] = [];
    const onLine = (event: { nick: string; target: string; message: string }) => {
      if (event.nick === bot() && event.target === FLOOD && event.message.includes('announcement'))
        arrivals.push(Date.now());
    };
    op.client.on('privmsg', onLine);
    // Let the channel's bucket fill up again after the cases before.
    await new Promise((resolve) => setTimeout(resolve, BURST * INTERVAL_MS * 2));
    const started = Date.now();
    await Promise.all(Array.from({ length: 100 }, (_, i) => post(FLOOD, { text: `announcement ${i}` })));
    const queuedMs = Date.now() - started;
    await waitFor(() => (arrivals.length === 100 ? true : undefined), 60_000);
    op.client.removeListener('privmsg', onLine);
    // Queuing does not wait for the pace.
    expect(queuedMs).toBeLessThan(100 * INTERVAL_MS);
    // In any stretch of time, no more than the burst plus one line per interval (50 ms of slack for the network).
    let worst = 0;
    for (let i = 0; i < arrivals.length; i += 1) {
      for (let j = i + 1; j < arrivals.length; j += 1) {
        const allowed =
          BURST + Math.floor(((arrivals[j] as number) - (arrivals[i] as number) + 50) / INTERVAL_MS);
        worst = Math.max(worst, j - i + 1 - allowed);
      }
    }
    expect(worst).toBeLessThanOrEqual(0);
    const seconds = ((arrivals.at(-1) as number) - (arrivals[0] as number)) / 1000;
    console.log(`100 lines in ${seconds.toFixed(1)} s: ${(99 / seconds).toFixed(2)} lines/s`);
    expect(deckhand.adapter.link?.connected).toBe(true);
  }, 90_000);

  it('marks a channel it was kicked from gone: announcements there stop, once', async () => {
    const subscriptions = deckhand.app.services.subscriptions;
    await subscriptions.put({
      conversationId: conversation(KICK),
      platform: 'irc',
      tool: 'mytool',
      kinds: ['deploys'],
      failuresOnly: false,
      changesOnly: false,
      createdBy: 'irc:test',
    });
    await post(KICK, { text: 'before the kick' });
    await waitFor(() => op.linesFrom(bot(), KICK).some((l) => l.includes('before the kick')));
    op.client.raw(`KICK ${KICK} ${bot()} :enough`);
    await waitFor(() => (deckhand.adapter.link?.joined.has(KICK) ? undefined : true));
    await waitFor(async () => deckhand.adapter.messenger.isGone(conversation(KICK)));
    const event: WatchEvent = {
      tool: 'mytool',
      kind: 'deployment',
      id: `kick-${Date.now()}`,
      from: 'running',
      to: 'failed',
      at: Date.now(),
      detail: 'announcement after the kick',
      outcome: 'failure',
      terminal: true,
    };
    const job = deliverJob(event, conversation(KICK));
    await deckhand.app.queues[deliverQueueOf('irc')].add(job.name, job.data, job.opts);
    const broken = await waitFor(async () => (await subscriptions.get(conversation(KICK), 'mytool'))?.broken);
    expect(broken).toContain(conversation(KICK));
    await expect(post(KICK, { text: 'after the kick' })).rejects.toThrow(/can no longer post/);
    // The bot is not back in the channel, and nothing more reached it.
    op.say(KICK, 'still here');
    await post(FLOOD, { text: 'positive control' });
    await waitFor(() => op.linesFrom(bot(), FLOOD).some((l) => l.includes('positive control')));
    expect(op.linesFrom(bot(), KICK).filter((l) => l.includes('after the kick'))).toEqual([]);
  });

  it('re-connects and re-joins within 30 s after the ircd restarts; lines queued meanwhile arrive', async () => {
    await op.quit();
    await network.stopIrcd();
    await waitFor(() => (deckhand.adapter.link?.connected ? undefined : true));
    const down = Date.now();
    await post(FLOOD, { text: 'queued while the link was down' });
    await network.startIrcd();
    op = await connectHuman(network, { nick: 'chanop' });
    await op.join(FLOOD);
    await waitFor(() => (deckhand.adapter.link?.joined.has(FLOOD) ? true : undefined), 30_000);
    const back = Date.now() - down;
    console.log(`re-joined ${FLOOD} ${(back / 1000).toFixed(1)} s after the ircd went down`);
    expect(back).toBeLessThan(30_000);
    await waitFor(
      () => op.linesFrom(bot(), FLOOD).some((l) => l.includes('queued while the link was down')),
      30_000,
    );
  }, 90_000);
});
