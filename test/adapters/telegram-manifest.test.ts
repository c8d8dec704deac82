import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { telegram } from '../../adapters/telegram';
import { buildTelegramCommands } from '../../adapters/telegram/manifest';
import { runRegister } from '../../src/cli/manifest';
import { loadConfig } from '../../src/config';
import { commandRegistry } from '../../src/wiring';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram';
import { useStarted } from '../support/started';

const ROOT = join(import.meta.dirname, '..', '..');
let fake: FakeTelegram;

useStarted(startFakeTelegram, (started) => {
  fake = started;
});

describe('Telegram command menu', () => {
  it('matches the checked-in manifest/telegram-commands.json (run `npx deckhand manifest telegram` when this fails)', async () => {
    const spec = await telegram.manifest?.();
    expect(spec?.file).toBe('telegram-commands.json');
    const checkedIn = JSON.parse(readFileSync(join(ROOT, 'manifest', 'telegram-commands.json'), 'utf8'));
    const generated = spec?.build(commandRegistry(), loadConfig({}));
    expect(checkedIn).toEqual(generated);
  });

  it('lists every command group for private chats, and leaves private-only groups out of groups', () => {
    const registry = commandRegistry();
    const manifest = buildTelegramCommands(registry);
    const [privateChats, groupChats] = manifest.scopes;
    expect(privateChats?.scope).toEqual({ type: 'all_private_chats' });
    expect(groupChats?.scope).toEqual({ type: 'all_group_chats' });
    expect(privateChats?.commands.map((c) => c.command)).toEqual([...registry.groups(), 'cancel']);
    const inGroups = groupChats?.commands.map((c) => c.command) ?? [];
    expect(inGroups).toContain('deploy');
    expect(inGroups).toContain('jobs');
    expect(inGroups).not.toContain('token');
    expect(inGroups).not.toContain('cancel');
  });

  it('`deckhand register telegram` sets each scope with setMyCommands, as the fake Bot API accepts it', async () => {
    const config = loadConfig({
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_API_ROOT: fake.apiRoot,
      LOG_LEVEL: 'silent',
    });
    const code = await runRegister(config, 'telegram', undefined);
    expect(code).toBe(0);
    fake.assertClean();
    const manifest = buildTelegramCommands(commandRegistry());
    expect(fake.state.commands.get('all_private_chats')).toEqual(manifest.scopes[0]?.commands);
    expect(fake.state.commands.get('all_group_chats')).toEqual(manifest.scopes[1]?.commands);
    expect(fake.callsTo('setMyCommands')).toHaveLength(manifest.scopes.length);
    for (const language of ['de', 'he']) {
      const localized = manifest.scopes.filter((s) => s.language_code === language);
      expect(localized.map((s) => s.scope.type)).toEqual(['all_private_chats', 'all_group_chats']);
      expect(fake.state.commands.get(`all_private_chats@${language}`)).toEqual(localized[0]?.commands);
      expect(fake.state.commands.get(`all_group_chats@${language}`)).toEqual(localized[1]?.commands);
    }
    const deploy = (language: string) =>
      fake.state.commands.get(`all_private_chats@${language}`)?.find((c) => c.command === 'deploy')
        ?.description;
    expect(deploy('de')).toBe('Ein Tool deployen und bis zum Ende verfolgen');
    expect(deploy('he')).toBe('פריסת כלי ומעקב עד הסוף');
  });
});
