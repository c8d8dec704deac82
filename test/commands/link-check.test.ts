import { SANDBOX_CALENDAR_USERS } from '@deckhand/sandbox/calendar';
import { SANDBOX_MEDIA_KEY } from '@deckhand/sandbox/media';
import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { describe, expect, it } from 'vitest';
import type { VaultService } from '../../src/store/vault';
import { startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';

let t: TestApp;
let sandbox: ToolhostSandbox;

useStarted(startTestApp, (started) => {
  t = started;
  sandbox = t.app.emulators.toolhost as ToolhostSandbox;
});

const owner = (id: string) => ({ platform: 'slack', workspace: 'T1', id });
const stored = (id: string, key: VaultService) => t.app.services.accounts.vault.get(owner(id), key);
const say = async (line: string, user: string) => {
  const [card] = await t.say(line, { user, private: true });
  return JSON.stringify(card);
};

describe('/link checks a credential with its service before storing it', () => {
  it('refuses a wrong media key (the host says "Invalid key") and stores a right one', async () => {
    const refused = await say('/link media wrong-media-key-0000', 'UMEDIA');
    expect(refused).toContain('The media host refused this API key, so nothing was stored');
    expect(refused).not.toContain('wrong-media-key-0000');
    expect(await stored('UMEDIA', 'media')).toBeUndefined();
    expect(await say(`/link media ${SANDBOX_MEDIA_KEY}`, 'UMEDIA')).toContain('Stored a media API key');
    expect((await stored('UMEDIA', 'media'))?.secret.apiKey).toBe(SANDBOX_MEDIA_KEY);
  });

  it('refuses a wrong calendar password (WordPress 401 on a read carrying it) and stores a right one', async () => {
    const refused = await say('/link calendar someone "wrong pass word"', 'UCAL');
    expect(refused).toContain('The calendar site refused this application password, so nothing was stored');
    expect(await stored('UCAL', 'calendar')).toBeUndefined();
    const { user, appPassword } = SANDBOX_CALENDAR_USERS.contributor;
    expect(await say(`/link calendar ${user} "${appPassword}"`, 'UCAL')).toContain(
      `Stored a calendar account (${user})`,
    );
    expect((await stored('UCAL', 'calendar'))?.meta.username).toBe(user);
  });

  it('refuses a wrong deploy token (the platform answers 401) and stores the right one', async () => {
    const refused = await say('/link tool mytool not-a-token-at-all', 'UTOKEN');
    expect(refused).toContain('The tool platform refused this deploy token, so nothing was stored');
    expect(refused).not.toContain('not-a-token-at-all');
    expect(await stored('UTOKEN', 'tool:mytool')).toBeUndefined();
    const token = sandbox.deployTokenFor('mytool') as string;
    expect(await say(`/link tool mytool ${token}`, 'UTOKEN')).toContain('Stored a deploy token for mytool');
    expect((await stored('UTOKEN', 'tool:mytool'))?.secret.token).toBe(token);
  });

  it('says an outage is the service, not the credential, and stores nothing', async () => {
    sandbox.controls.setUnhealthy('components', 'database down');
    try {
      const answer = await say(`/link tool mytool ${sandbox.deployTokenFor('mytool')}`, 'UOUTAGE');
      expect(answer).toContain(
        'Could not check the deploy token: the tool platform is not answering properly',
      );
      expect(answer).toContain('This is the service, not your credential');
      expect(answer).not.toContain('refused');
      expect(await stored('UOUTAGE', 'tool:mytool')).toBeUndefined();
    } finally {
      sandbox.controls.setUnhealthy('components', undefined);
    }
  });
});
