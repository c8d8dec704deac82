import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SLACK_ROUTES } from '../../adapters/slack/adapter';
import { slackManifest } from '../../adapters/slack/load';
import { BOT_EVENTS, BOT_SCOPES, buildSlackManifest } from '../../adapters/slack/manifest';
import { loadConfig } from '../../src/config';
import { commandRegistry } from '../../src/wiring';

const FILE = join(import.meta.dirname, '..', '..', 'manifest', 'slack-app.json');

interface SlashCommand {
  command: string;
  description: string;
  usage_hint?: string;
  url?: string;
  should_escape: boolean;
}
interface Manifest {
  display_information: { name: string; description: string };
  features: {
    app_home: { home_tab_enabled: boolean; messages_tab_enabled: boolean };
    bot_user: { display_name: string };
    slash_commands: SlashCommand[];
  };
  oauth_config: { redirect_urls: string[]; scopes: { bot: string[] } };
  settings: {
    event_subscriptions: { request_url?: string; bot_events: string[] };
    interactivity: { is_enabled: boolean; request_url?: string };
    socket_mode_enabled: boolean;
  };
}

const build = (env: Record<string, string> = {}) =>
  buildSlackManifest(commandRegistry(), loadConfig(env)) as Manifest;

describe('manifest/slack-app.json', () => {
  it('is what `deckhand manifest slack` generates from the command registry today (not stale)', () => {
    const checkedIn = JSON.parse(readFileSync(FILE, 'utf8'));
    expect(slackManifest?.file).toBe('slack-app.json');
    expect(checkedIn, 'manifest/slack-app.json is stale: run `npx deckhand manifest slack`').toEqual(
      slackManifest?.build(commandRegistry(), loadConfig({})),
    );
  });

  it('has one namespaced slash command, /deckhand, within Slack limits', () => {
    const manifest = build();
    expect(manifest.features.slash_commands.map((c) => c.command)).toEqual(['/deckhand']);
    const [command] = manifest.features.slash_commands;
    expect(command?.description).toContain('deploy');
    expect(command?.description).toContain('/deckhand help');
    expect(command?.usage_hint).toContain('deploy mytool');
    expect(manifest.display_information.name.length).toBeLessThanOrEqual(35);
    expect(manifest.display_information.description.length).toBeLessThanOrEqual(140);
    expect(manifest.features.bot_user.display_name).toMatch(/^[a-z0-9._-]{1,80}$/);
  });

  it('names the command after SLACK_COMMAND and adds the opt-in per-group commands', () => {
    const named = build({ SLACK_COMMAND: 'ops' });
    expect(named.features.slash_commands.map((c) => c.command)).toEqual(['/ops']);
    const some = build({ SLACK_LEGACY_COMMANDS: 'deploy, jobs' });
    expect(some.features.slash_commands.map((c) => c.command)).toEqual(['/deckhand', '/deploy', '/jobs']);
    const all = build({ SLACK_LEGACY_COMMANDS: 'all' });
    const registry = commandRegistry();
    // Every group but `me`: `/me` is Slack's own command (ours is `/deckhand me`).
    expect(registry.groups()).toContain('me');
    expect(all.features.slash_commands.map((c) => c.command)).toEqual([
      '/deckhand',
      ...registry
        .groups()
        .filter((g) => g !== 'me')
        .map((g) => `/${g}`),
    ]);
    for (const command of all.features.slash_commands) {
      expect(command.command).toMatch(/^\/[a-z0-9_-]{1,31}$/);
      expect(command.description.length).toBeGreaterThan(0);
      expect(command.description.length).toBeLessThanOrEqual(2000);
      expect((command.usage_hint ?? '').length).toBeLessThanOrEqual(1000);
      expect(command.should_escape).toBe(false);
    }
    const jobs = all.features.slash_commands.find((c) => c.command === '/jobs');
    expect(jobs?.usage_hint).toContain('restart');
  });

  it('enables the Home tab and subscribes to app_home_opened, which draws it', () => {
    for (const manifest of [build(), build({ SLACK_APP_TOKEN: 'xapp-1-abc', SLACK_BOT_TOKEN: 'xoxb-1' })]) {
      expect(manifest.features.app_home.home_tab_enabled).toBe(true);
      expect(manifest.features.app_home.messages_tab_enabled).toBe(true);
      expect(manifest.settings.event_subscriptions.bot_events).toContain('app_home_opened');
    }
    const checkedIn = JSON.parse(readFileSync(FILE, 'utf8')) as Manifest;
    expect(checkedIn.features.app_home.home_tab_enabled).toBe(true);
    expect(checkedIn.settings.event_subscriptions.bot_events).toContain('app_home_opened');
  });

  it('refuses a SLACK_COMMAND Slack would not accept', () => {
    expect(() => loadConfig({ SLACK_COMMAND: '/deckhand' })).toThrow(/SLACK_COMMAND/);
  });

  it('points commands, interactivity, events and the OAuth redirect at PUBLIC_URL', () => {
    const manifest = build({ PUBLIC_URL: 'https://bot.example.net/', SLACK_LEGACY_COMMANDS: 'deploy' });
    const events = `https://bot.example.net${SLACK_ROUTES.events}`;
    for (const command of manifest.features.slash_commands) expect(command.url).toBe(events);
    expect(manifest.settings.interactivity).toEqual({ is_enabled: true, request_url: events });
    expect(manifest.settings.event_subscriptions).toEqual({
      request_url: events,
      bot_events: [...BOT_EVENTS],
    });
    expect(manifest.oauth_config.redirect_urls).toEqual([
      `https://bot.example.net${SLACK_ROUTES.oauthRedirect}`,
    ]);
    expect(manifest.oauth_config.scopes.bot).toEqual([...BOT_SCOPES]);
    expect(manifest.oauth_config.scopes.bot).toEqual(
      expect.arrayContaining(['commands', 'chat:write', 'im:write', 'files:write', 'files:read']),
    );
  });

  it('turns Socket Mode on (and drops request URLs) when SLACK_APP_TOKEN is set', () => {
    const manifest = build({ SLACK_APP_TOKEN: 'xapp-1-abc', SLACK_BOT_TOKEN: 'xoxb-1' });
    expect(manifest.settings.socket_mode_enabled).toBe(true);
    expect(manifest.settings.interactivity).toEqual({ is_enabled: true });
    expect(manifest.features.slash_commands.every((c) => c.url === undefined)).toBe(true);
  });
});
