/**
 * The CLI's rule for which platforms `start` runs (src/wiring/platforms.ts over the table of platform
 * descriptors, which loads no adapter), on every combination that turns a platform on or not, and the
 * lazy loading of only the configured platforms' adapters.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { loadAdapterFactories, runnablePlatforms } from '../../src/wiring/platforms';

const TELEGRAM_TOKEN = '123:AAAAAAAAAAAAAAAAAAAAAAAA';
const SETTINGS: [Record<string, string>, string[]][] = [
  [{}, []],
  [{ SLACK_BOT_TOKEN: 'xoxb-1' }, []],
  [{ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' }, ['slack']],
  [{ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' }, ['slack']],
  [{ SLACK_CLIENT_ID: '1.2' }, []],
  [{ SLACK_CLIENT_ID: '1.2', SLACK_CLIENT_SECRET: 'c' }, ['slack']],
  [{ DISCORD_TOKEN: 't' }, []],
  [{ DISCORD_APPLICATION_ID: '123456' }, []],
  [{ DISCORD_TOKEN: 't', DISCORD_APPLICATION_ID: '123456' }, ['discord']],
  [{ TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN }, ['telegram']],
  [
    {
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_SIGNING_SECRET: 's',
      DISCORD_TOKEN: 't',
      DISCORD_APPLICATION_ID: '123456',
      TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN,
    },
    ['slack', 'discord', 'telegram'],
  ],
];

describe('runnablePlatforms', () => {
  it.each(SETTINGS.map(([env, want]) => [Object.keys(env).join(' + ') || 'nothing', env, want] as const))(
    '%s: the platforms whose credentials are complete',
    (_name, env, want) => {
      expect(runnablePlatforms(loadConfig(env as NodeJS.ProcessEnv))).toEqual(want);
    },
  );

  it('loads the factory of each configured platform only', async () => {
    const config = loadConfig({ TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN });
    const factories = await loadAdapterFactories(config);
    expect(factories.map((f) => f.name)).toEqual(['createTelegramAdapter']);
    expect(await loadAdapterFactories(loadConfig({}))).toEqual([]);
  });

  it('each loaded factory turns its adapter on exactly when the descriptor says it is configured', async () => {
    const { PLATFORMS } = await import('../../adapters/platforms');
    for (const [env] of SETTINGS) {
      const config = loadConfig(env as NodeJS.ProcessEnv);
      for (const platform of PLATFORMS.filter((p) => p.load && !p.configured(config))) {
        const factory = await platform.load?.();
        // A factory asked without its credentials declines before touching the context.
        expect(factory?.({ config } as Parameters<NonNullable<typeof factory>>[0])).toBeUndefined();
      }
    }
  });
});
