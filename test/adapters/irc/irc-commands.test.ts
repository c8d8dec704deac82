/**
 * Commands on a real IRC network (InspIRCd + Atheme): identity is the services account, never the nick.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IrcDeckhand, startIrcDeckhand } from '../../support/irc-deckhand';
import { startTestIrcNetwork, type TestIrcNetwork } from '../../support/irc-network';
import { connectHuman, type Human, identifiedHuman } from '../../support/irc-users';
import { waitFor } from '../../support/wait';

const CHANNEL = '#deckhand-ops';

describe('IRC commands on a real network', () => {
  let network: TestIrcNetwork;
  let deckhand: IrcDeckhand;
  let owner: Human & { account: string };

  beforeAll(async () => {
    network = await startTestIrcNetwork();
    owner = await identifiedHuman(network, 'ada');
    deckhand = await startIrcDeckhand(network, {
      channels: [CHANNEL],
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
    console.log(lines.join('\n'));
    expect(end).toContain('[done]');
    const start = lines.findIndex((l) => /deploy/i.test(l));
    expect(start).toBeGreaterThanOrEqual(0);
    expect(lines.indexOf(end)).toBeGreaterThan(start);
  });
});
