/**
 * Decisions the core takes for every adapter ("the core decides; adapters translate"):
 * the double-click window, the confirm dialogs and autocomplete.
 */
import { describe, expect, it } from 'vitest';
import { ALL_COMMANDS } from '../../commands';
import { CLICK_WINDOW_SECONDS, ClickGuard } from '../../src/core/clicks';
import { confirmDialogs, dangerDialogs } from '../../src/core/confirm-dialogs';
import { CommandRegistry } from '../../src/core/registry';
import { type SuggestionLister, Suggestions, suggestionSource } from '../../src/core/suggestions';

describe('ClickGuard', () => {
  it('claims each press for the same window on every platform, keyed by message, button and person', async () => {
    const claims: [string, number][] = [];
    const seen = new Set<string>();
    const guard = new ClickGuard((seconds) => ({
      async claim(key: string) {
        claims.push([key, seconds]);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      },
    }));
    const press = { platform: 'slack' as const, message: 'T1:C1:1.2', action: 'abc', user: 'U1' };
    expect(await guard.first(press)).toBe(true);
    expect(await guard.first(press)).toBe(false);
    expect(await guard.first({ ...press, user: 'U2' })).toBe(true);
    expect(await guard.first({ ...press, platform: 'telegram' })).toBe(true);
    expect(CLICK_WINDOW_SECONDS).toBe(5);
    expect(claims.every(([, ttl]) => ttl === CLICK_WINDOW_SECONDS)).toBe(true);
    expect(new Set(claims.map(([key]) => key)).size).toBe(3);
  });
});

describe('confirm dialogs', () => {
  const card = {
    title: 'Deployment of mytool',
    buttons: [
      { label: 'Delete', actionId: 'a1', style: 'danger' as const },
      { label: 'Restart', actionId: 'a2', style: 'danger' as const },
      { label: 'Confirm', actionId: 'a3', style: 'danger' as const },
      { label: 'Show', actionId: 'a4' },
    ],
  };

  it('asks before danger buttons whose command does not confirm itself, and says what about', async () => {
    const stored: Record<string, { command: string; confirmed?: boolean }> = {
      a1: { command: 'plain delete' },
      a2: { command: 'confirming restart' },
      a3: { command: 'plain delete', confirmed: true },
      a4: { command: 'plain delete' },
    };
    const actions = { load: async (id: string) => stored[id] } as never;
    const registry = {
      get: (name: string) => (name === 'confirming restart' ? { confirm: () => 'sure?' } : { name }),
    } as never;
    const dialogs = await confirmDialogs(actions, registry)(card);
    // a2's command asks itself (Confirm/Cancel card); a3 is that card's Confirm; a4 is not dangerous.
    expect([...dialogs.keys()]).toEqual(['a1']);
    expect(dialogs.get('a1')).toEqual({
      title: 'Are you sure?',
      text: 'Delete (Deployment of mytool): this cannot be undone.',
      confirm: 'Delete',
      deny: 'Keep it',
    });
    expect([...dangerDialogs(card).keys()]).toEqual(['a1', 'a2', 'a3']);
  });

  it("asks in the card's language, naming the button and the card it is on", () => {
    const german = {
      ...card,
      title: 'Deployment von mytool',
      buttons: [{ label: 'Löschen', actionId: 'a1', style: 'danger' as const }],
      locale: 'de',
    };
    expect(dangerDialogs(german).get('a1')).toEqual({
      title: 'Bist du sicher?',
      text: 'Löschen (Deployment von mytool): Das lässt sich nicht rückgängig machen.',
      confirm: 'Löschen',
      deny: 'Lieber nicht',
    });
    const untitled = { buttons: german.buttons, locale: 'he' };
    expect(dangerDialogs(untitled).get('a1')?.text).toBe('\u2068Löschen\u2069: אי אפשר לבטל את זה.');
  });
});

describe('Suggestions', () => {
  const commands = new CommandRegistry(ALL_COMMANDS);
  const lister = (calls: string[]): SuggestionLister => ({
    tools: () => ['demo', 'mytool'],
    async list(source, tool) {
      calls.push(`${source}:${tool}`);
      return source === 'jobs' ? ['web', 'worker', 'cron'] : ['latest', 'b2', 'b1'];
    },
  });

  it('decides what completes from what, and which tool the values belong to', async () => {
    expect(suggestionSource(commands.get('build show'), 'id')).toBe('builds');
    expect(suggestionSource(commands.get('deployment show'), 'id')).toBe('deployments');
    expect(suggestionSource(commands.get('jobs show'), 'job')).toBe('jobs');
    expect(suggestionSource(commands.get('jobs run'), 'name')).toBeUndefined();
    expect(suggestionSource(commands.get('tool lock'), 'tool')).toBe('tools');
    const calls: string[] = [];
    const suggestions = new Suggestions({
      commands,
      lister: lister(calls),
      bindings: { get: async (id) => (id === 'discord:G:bound' ? 'demo' : undefined) },
    });
    const where = { command: 'jobs show', key: 'job', conversationId: 'discord:G:bound' };
    expect(await suggestions.suggest({ ...where, typed: 'W' })).toEqual(['web', 'worker']);
    expect(await suggestions.suggest({ ...where, typed: '', tool: 'mytool' })).toEqual([
      'web',
      'worker',
      'cron',
    ]);
    expect(
      await suggestions.suggest({
        command: 'jobs show',
        key: 'job',
        typed: '',
        conversationId: 'discord:G:free',
      }),
    ).toEqual([]);
    expect(await suggestions.suggest({ ...where, key: 'tool', typed: 'my' })).toEqual(['mytool']);
    // The bound tool's listing was fetched once and reused from the cache.
    await suggestions.suggest({ ...where, typed: 'c' });
    expect(calls).toEqual(['jobs:demo', 'jobs:mytool']);
  });

  it('answers with nothing, and reports why, when the listing fails', async () => {
    const errors: string[] = [];
    const suggestions = new Suggestions({
      commands,
      lister: { tools: () => [], list: async () => Promise.reject(new Error('toolhost down')) },
      bindings: { get: async () => undefined },
      onError: (error, source) => errors.push(`${source}: ${(error as Error).message}`),
    });
    expect(
      await suggestions.suggest({
        command: 'build show',
        key: 'id',
        typed: '',
        tool: 'mytool',
        conversationId: 'x',
      }),
    ).toEqual([]);
    expect(errors).toEqual(['builds: toolhost down']);
  });
});
