/** `deckhand doctor`'s IRC lines against the real test network: connect, SASL, channels. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ircDoctor } from '../../../adapters/irc/doctor';
import { loadConfig } from '../../../src/config';
import { startTestIrcNetwork, type TestIrcNetwork } from '../../support/irc-network';
import { accountName, connectHuman, registerAccount } from '../../support/irc-users';

describe('IRC doctor', () => {
  let network: TestIrcNetwork;
  let account: string;
  let password: string;
  let dir: string;

  beforeAll(async () => {
    network = await startTestIrcNetwork();
    account = accountName('doc');
    password = await registerAccount(network, account);
    dir = mkdtempSync(join(tmpdir(), 'deckhand-irc-doctor-'));
    writeFileSync(join(dir, 'ca.pem'), network.certificate);
  });
  afterAll(async () => {
    await network?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const config = (env: Record<string, string>) =>
    loadConfig({
      IRC_SERVER: `${network.host}:${network.tlsPort}`,
      IRC_TLS_CA: join(dir, 'ca.pem'),
      IRC_NICK: account,
      IRC_SASL_ACCOUNT: account,
      IRC_SASL_PASSWORD: password,
      IRC_CHANNELS: '#doctor-open',
      ...env,
    });

  it('connects over TLS, has SASL accepted and joins the channels, the SAL channel too', async () => {
    const c = config({});
    const connection = await ircDoctor.credentials(c);
    expect(connection).toMatchObject({ status: 'ok' });
    expect(connection.detail).toContain(`SASL accepted as ${account}`);
    expect(await ircDoctor.deliveries?.(c, true)).toMatchObject({
      status: 'ok',
      detail:
        "joined #doctor-open, #wikimedia-cloud-feed (the Server Admin Log's channel: lines only, no commands).",
    });
  });

  it('says SASL was refused for a wrong password, never showing it', async () => {
    const result = await ircDoctor.credentials(config({ IRC_SASL_PASSWORD: 'wrong-password-123' }));
    expect(result.status).toBe('fail');
    expect(result.detail).toMatch(/SASL was refused/);
    expect(result.detail).not.toContain('wrong-password-123');
  });

  it('names a channel it cannot join, and why', async () => {
    const keeper = await connectHuman(network, { nick: 'keeper' });
    await keeper.join('#doctor-closed');
    keeper.client.raw('MODE #doctor-closed +i');
    const c = config({ IRC_CHANNELS: '#doctor-closed' });
    expect(await ircDoctor.credentials(c)).toMatchObject({ status: 'ok' });
    const channels = await ircDoctor.deliveries?.(c, true);
    expect(channels?.status).toBe('fail');
    expect(channels?.detail).toContain('#doctor-closed');
    await keeper.quit();
  });

  it('says the server cannot be reached', async () => {
    const result = await ircDoctor.credentials(config({ IRC_SERVER: '127.0.0.1:1' }));
    expect(result.status).toBe('fail');
    expect(result.detail).toContain('could not connect to 127.0.0.1:1');
  });
});
