/** The test IRC network itself: services linked, SASL accounts, account-tag, and a restart. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIrcNetwork, type TestIrcNetwork } from '../../support/irc-network';
import { connectHuman, identifiedHuman } from '../../support/irc-users';
import { waitFor } from '../../support/wait';

describe('test IRC network (InspIRCd + Atheme)', () => {
  let network: TestIrcNetwork;
  beforeAll(async () => {
    network = await startTestIrcNetwork();
  });
  afterAll(async () => {
    await network?.stop();
  });

  it('identifies a registered account over SASL and tags its messages with it', async () => {
    const ada = await identifiedHuman(network, 'ada');
    const bob = await connectHuman(network, { nick: 'bob' });
    expect(ada.client.network.cap.isEnabled('account-tag')).toBe(true);
    expect(ada.client.network.cap.isEnabled('extended-join')).toBe(true);
    await ada.join('#room');
    await bob.join('#room');
    ada.say('#room', 'hello from an account');
    bob.say('#room', 'hello from nobody');
    await waitFor(() => (bob.linesFrom(ada.nick, '#room').length ? true : undefined));
    const line = bob.seen.find((s) => s.nick === ada.nick);
    expect(line?.tags.account).toBe(ada.account);
    await waitFor(() => (ada.linesFrom('bob', '#room').length ? true : undefined));
    expect(ada.seen.find((s) => s.nick === 'bob')?.tags.account).toBeUndefined();
    await ada.quit();
    await bob.quit();
  });

  it('comes back after the ircd restarts, with services re-linked', async () => {
    await network.stopIrcd();
    const started = Date.now();
    await network.startIrcd();
    expect(Date.now() - started).toBeLessThan(15_000);
    const eve = await identifiedHuman(network, 'eve');
    expect(eve.client.network.cap.isEnabled('sasl')).toBe(true);
    await eve.quit();
  });
});
