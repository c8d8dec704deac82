/**
 * Commands on a real IRC network (InspIRCd + Atheme), the bot connected over TLS (certificate verified
 * against the network's CA) with SASL: identity is the services account, never the nick.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ircConversationId } from '../../../adapters/irc/surface';
import { type IrcDeckhand, startIrcDeckhand } from '../../support/irc-deckhand';
import { startTestIrcNetwork, type TestIrcNetwork } from '../../support/irc-network';
import { connectHuman, type Human, identifiedHuman } from '../../support/irc-users';
import { waitFor } from '../../support/wait';

const CHANNEL = '#deckhand-ops';

describe('IRC commands on a real network', () => {
  let network: TestIrcNetwork;
  let deckhand: IrcDeckhand;
  let owner: Human & { account: string; password: string };

  beforeAll(async () => {
    network = await startTestIrcNetwork();
    owner = await identifiedHuman(network, 'ada');
    deckhand = await startIrcDeckhand(network, {
      channels: [CHANNEL],
      tls: true,
      env: { TOOL_MAINTAINERS: `mytool=irc:${owner.account}` },
    });
    await owner.join(CHANNEL);
  });
  afterAll(async () => {
    await owner?.quit();
    await deckhand?.close();
    await network?.stop();
  });

  const bot = () => deckhand.adapter.link?.client.user.nick as string;

  it('follows `!deploy mytool` by an identified maintainer: its start and its end are posted', async () => {
    owner.say(CHANNEL, '!deploy mytool');
    const end = await waitFor(
      () => owner.linesFrom(bot(), CHANNEL).find((l) => /\[done\]|\[failed\]/.test(l) && /mytool/i.test(l)),
      60_000,
    );
    const lines = owner.linesFrom(bot(), CHANNEL);
    expect(end).toContain('[done]');
    const start = lines.findIndex((l) => /deploy/i.test(l));
    expect(start).toBeGreaterThanOrEqual(0);
    expect(lines.indexOf(end)).toBeGreaterThan(start);
  });

  it('never takes a secret in IRC text, and hands out the one-time secret page in a private query', async () => {
    const token = 'tok-3f9a1c77e2b04d5a';
    owner.say(CHANNEL, `!link tool mytool ${token}`);
    const refusal = await waitFor(() =>
      owner.linesFrom(bot(), CHANNEL).find((l) => /never carries a secret/.test(l)),
    );
    expect(refusal).toContain('!link tool');
    // In a private query, the command without the value answers there with the page's link.
    owner.say(bot(), 'link tool mytool');
    const page = await waitFor(() => owner.linesFrom(bot(), owner.nick).find((l) => /\/secrets\//.test(l)));
    expect(page).toMatch(/http:\/\/127\.0\.0\.1:\d+\/secrets\/\S+/);
    // It does not suggest typing the value in the private query: IRC never takes one.
    const query = owner.linesFrom(bot(), owner.nick).join('\n');
    expect(query).toContain('secrets are never taken in chat text here');
    expect(query).not.toContain('with the value in a private conversation');
    expect(owner.seen.some((s) => s.message.includes(token))).toBe(false);
  });

  /** Lines the bot posted in the channel after the `before`th. */
  const botLinesAfter = (who: Human, before: number) => who.linesFrom(bot(), CHANNEL).slice(before);

  it('refuses a change to the account’s nick when it is not identified, and still answers read-only commands', async () => {
    await owner.quit();
    const impostor = await connectHuman(network, { nick: owner.account });
    try {
      await impostor.join(CHANNEL);
      impostor.say(CHANNEL, '!deploy mytool');
      const refusal = await waitFor(() =>
        impostor.linesFrom(bot(), CHANNEL).find((l) => /identified/.test(l)),
      );
      expect(refusal).toContain('!deploy changes something');
      // Positive control: a read-only command of the same person is answered, and no deployment began.
      impostor.say(CHANNEL, '!help deploy');
      const help = await waitFor(() =>
        impostor.linesFrom(bot()).find((l) => /deploy/i.test(l) && l !== refusal),
      );
      // Commands are written as they are typed on IRC.
      expect(help).toMatch(/!deploy\b/);
      expect(help).not.toMatch(/(^|\s)\/deploy\b/);
      expect(impostor.linesFrom(bot(), CHANNEL).some((l) => /Deploy mytool/.test(l))).toBe(false);
    } finally {
      await impostor.quit();
    }
  });

  it('refuses a spoofed nick after its identified owner disconnected, for commands and buttons', async () => {
    await owner.quit();
    const account = { name: owner.account, password: owner.password };
    const ada = await connectHuman(network, { nick: owner.account, account });
    await ada.join(CHANNEL);
    const before = ada.linesFrom(bot(), CHANNEL).length;
    ada.say(CHANNEL, '!deploy mytool');
    const done = await waitFor(
      () => botLinesAfter(ada, before).find((l) => /\[done\]\x02 Deploy mytool/.test(l)),
      30_000,
    );
    const redeploy = /\[(\d+)\] Redeploy/.exec(done)?.[1];
    expect(redeploy).toBeDefined();
    await ada.quit();
    const spoof = await connectHuman(network, { nick: owner.account });
    try {
      await spoof.join(CHANNEL);
      spoof.say(CHANNEL, '!deploy mytool');
      spoof.say(CHANNEL, `!${redeploy}`);
      await waitFor(() =>
        spoof.linesFrom(bot(), CHANNEL).filter((l) => /identified/.test(l)).length === 2 ? true : undefined,
      );
      spoof.say(CHANNEL, '!help deploy');
      await waitFor(() => spoof.linesFrom(bot()).length >= 3);
      expect(spoof.linesFrom(bot(), CHANNEL).some((l) => /Deploy mytool/.test(l))).toBe(false);
    } finally {
      await spoof.quit();
    }
  });

  it('stays within the server’s flood limits at the default pace: 20 announcements, never disconnected', async () => {
    const watcher = await connectHuman(network, { nick: 'watcher' });
    await watcher.join(CHANNEL);
    const arrivals: number[] = [];
    watcher.client.on('privmsg', (event: { nick: string; message: string }) => {
      if (event.nick === bot() && event.message.includes('default pace')) arrivals.push(Date.now());
    });
    const id = ircConversationId(deckhand.adapter.network, CHANNEL);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => deckhand.app.publisher.post(id, { text: `default pace ${i}` })),
    );
    await waitFor(() => (arrivals.length === 20 ? true : undefined), 60_000);
    // Defaults: a burst of 4, then one line a second (250 ms of slack for the network).
    for (let i = 0; i < 20; i += 1)
      for (let j = i + 1; j < 20; j += 1)
        expect(j - i + 1).toBeLessThanOrEqual(
          4 + Math.floor(((arrivals[j] as number) - (arrivals[i] as number) + 250) / 1000),
        );
    expect(deckhand.adapter.link?.connected).toBe(true);
    await watcher.quit();
  }, 90_000);
});
