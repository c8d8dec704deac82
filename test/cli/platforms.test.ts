/**
 * The CLI's rule for which platforms `start` runs (src/wiring/platforms.ts, which loads no adapter) is
 * the adapters' own `configuredPlatforms`, on every combination that turns a platform on or not.
 */
import { describe, expect, it } from 'vitest';
import { configuredPlatforms } from '../../adapters';
import { loadConfig } from '../../src/config';
import { loadAdapterFactories, runnablePlatforms } from '../../src/wiring/platforms';

const SETTINGS: Record<string, string>[] = [
  {},
  { SLACK_BOT_TOKEN: 'xoxb-1' },
  { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' },
  { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' },
  { SLACK_CLIENT_ID: '1.2' },
  { SLACK_CLIENT_ID: '1.2', SLACK_CLIENT_SECRET: 'c' },
  { DISCORD_TOKEN: 't' },
  { DISCORD_APPLICATION_ID: '123456' },
  { DISCORD_TOKEN: 't', DISCORD_APPLICATION_ID: '123456' },
  { TELEGRAM_BOT_TOKEN: '123:AAAAAAAAAAAAAAAAAAAAAAAA' },
  {
    SLACK_BOT_TOKEN: 'xoxb-1',
    SLACK_SIGNING_SECRET: 's',
    DISCORD_TOKEN: 't',
    DISCORD_APPLICATION_ID: '123456',
    TELEGRAM_BOT_TOKEN: '123:AAAAAAAAAAAAAAAAAAAAAAAA',
  },
];

describe('runnablePlatforms', () => {
  it.each(SETTINGS.map((s) => [Object.keys(s).join(' + ') || 'nothing', s]))(
    '%s: the same platforms as the adapters say',
    (_name, env) => {
      const config = loadConfig(env as NodeJS.ProcessEnv);
      expect(runnablePlatforms(config)).toEqual(configuredPlatforms(config));
    },
  );

  it('loads the factory of each configured platform only', async () => {
    const config = loadConfig({ TELEGRAM_BOT_TOKEN: '123:AAAAAAAAAAAAAAAAAAAAAAAA' });
    const factories = await loadAdapterFactories(config);
    expect(factories.map((f) => f.name)).toEqual(['createTelegramAdapter']);
    expect(await loadAdapterFactories(loadConfig({}))).toEqual([]);
  });
});
