/** The SAL channel on IRC: joined with the configured channels, once, and named by the settings check. */
import { describe, expect, it } from 'vitest';
import { ircSettingsCheck } from '../../../adapters/irc/checks';
import { channelsToJoin, isFeedChannel } from '../../../adapters/irc/feed';
import { loadConfig } from '../../../src/config';

const config = (env: Record<string, string>) =>
  loadConfig({
    IRC_SERVER: 'irc.example.org:6697',
    IRC_SASL_ACCOUNT: 'deckhand',
    IRC_SASL_PASSWORD: 'pw',
    ...env,
  });

describe('the SAL channel on IRC', () => {
  it('is joined after the configured channels, once whatever its case', () => {
    expect(channelsToJoin(config({ IRC_CHANNELS: '#ops,#tool' }))).toEqual([
      '#ops',
      '#tool',
      '#wikimedia-cloud-feed',
    ]);
    expect(channelsToJoin(config({ IRC_CHANNELS: '#ops,#Wikimedia-Cloud-Feed' }))).toEqual([
      '#ops',
      '#Wikimedia-Cloud-Feed',
    ]);
    expect(channelsToJoin(config({ SAL_CHANNEL: '#my-sal' }))).toEqual(['#my-sal']);
  });

  it('is the only channel that counts as the feed', () => {
    const c = config({ SAL_CHANNEL: '#my-sal' });
    expect(isFeedChannel(c, '#MY-SAL')).toBe(true);
    expect(isFeedChannel(c, '#ops')).toBe(false);
    expect(isFeedChannel(c, 'ada')).toBe(false);
  });

  it('is named by the settings check, which says no command is answered there when it is listed', () => {
    expect(ircSettingsCheck(config({ IRC_CHANNELS: '#ops' }))?.detail).toContain(
      'SAL lines in #wikimedia-cloud-feed, joined as well',
    );
    const listed = ircSettingsCheck(config({ IRC_CHANNELS: '#ops,#wikimedia-cloud-feed' }));
    expect(listed?.status).toBe('ok');
    expect(listed?.detail).toContain(
      '#wikimedia-cloud-feed is also the SAL channel (SAL_CHANNEL): no command is answered there',
    );
  });
});
