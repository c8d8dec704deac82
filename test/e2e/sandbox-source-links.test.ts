/**
 * The source host's emulator starts with no tokens, so a source-host link stored against the last
 * run's emulator would answer "Bad credentials": a start on the emulator removes such links (and
 * only those) and says so, so /whoami no longer shows it and /link source works again.
 */
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app';
import { testPrefix } from '../support/redis';

const owner = { platform: 'slack', workspace: 'T1', id: 'UADA' };

describe('a sandbox start with the source host emulator', () => {
  it('removes the last run’s source-host links, keeps other credentials, and /whoami no longer shows the link', async () => {
    const prefix = testPrefix();
    const first = await startTestApp({ REDIS_KEY_PREFIX: prefix });
    const vault = first.app.services.accounts.vault;
    await vault.put(owner, 'source', {
      secret: { token: 'gho_lastrunlastrunlastrun' },
      meta: { login: 'ada' },
    });
    await vault.put(owner, 'media', { secret: { apiKey: 'media-key-kept-0001' }, meta: {} });
    const before = JSON.stringify(await first.say('/whoami', { user: 'UADA', private: true }));
    expect(before).toMatch(/"label":"Source host[^"]*","value":"[^"]*ada/);
    await first.close();

    const second = await startTestApp({ REDIS_KEY_PREFIX: prefix });
    try {
      const again = second.app.services.accounts.vault;
      expect(await again.get(owner, 'source')).toBeUndefined();
      expect((await again.get(owner, 'media'))?.secret.apiKey).toBe('media-key-kept-0001');
      const whoami = JSON.stringify(await second.say('/whoami', { user: 'UADA', private: true }));
      expect(whoami).toContain('Media API key');
      expect(whoami).not.toContain('Source host');
    } finally {
      await second.close();
    }
  });
});
