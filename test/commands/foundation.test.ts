import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { describe, expect, it } from 'vitest';
import { upstreamDuration } from '../../src/metrics';
import type { ToolhostClientFactory } from '../../src/services/toolhost';
import { button, type TestApp } from '../support/app';
import { expectReplies } from '../support/replies';
import { useToolhostApp } from '../support/toolhost-app';
import { waitFor } from '../support/wait';

let t: TestApp;
let platform: ToolhostClientFactory;

useToolhostApp((started) => {
  ({ t, platform } = started);
});

/** Requests Deckhand sent to the tool platform on a route ending in `route`. */
async function upstreamCount(method: string, route: string): Promise<number> {
  const { values } = await upstreamDuration.get();
  return values
    .filter((v) => v.metricName?.endsWith('_count') && v.labels.method === method)
    .filter((v) => String(v.labels.route).endsWith(route))
    .reduce((sum, v) => sum + v.value, 0);
}

const idle = () => waitFor(async () => (await t.app.services.watches.activeCount()) === 0, 20_000);

describe('deployments from chat', () => {
  it('shows a running deployment instead of starting a second one', async () => {
    // Held, so the first is still running when the second arrives however slow the machine is.
    const sandbox = t.app.emulators.toolhost as ToolhostSandbox;
    sandbox.controls.holdDeployments(true);
    const [first] = await t.say('/deploy mytool --force-build --description "first"');
    const [second] = await t.say('/deploy mytool');
    sandbox.controls.holdDeployments(false);
    expect(second?.text).toContain('A deployment is already running, so no new one was started');
    expect(first?.footer).toContain(second?.footer as string);
    await idle();
    expect(
      (await platform.forTool('mytool').components.listDeployments()).filter(
        (d) => d.description === 'first',
      ),
    ).toHaveLength(1);
  });

  it('lists, shows and deletes deployments', async () => {
    const [list] = await t.say('/deployment list mytool');
    expect(list?.code?.text).toMatch(/^ID\s+STATUS\s+STARTED \(UTC\)\s+DESCRIPTION/);
    expect(list?.code?.text, list?.code?.text).toMatch(/successful .* first/);
    const [shown] = await t.say('/deployment show mytool latest');
    expect(shown?.title).toBe('Deploy mytool');
    const id = shown?.footer?.replace('deployment ', '') as string;
    const [ask] = await t.say(`/deployment delete mytool ${id}`);
    await t.press(button(ask, 'Confirm'));
    await expect(platform.forTool('mytool').components.showDeployment(id)).rejects.toThrow(
      /not found|no deployment/i,
    );
  });

  it('cancels a running deployment from its card, and a finished one is explained', async () => {
    const config = await platform.forTool('demo').components.getConfig();
    for (const component of Object.values(config.components)) {
      if ('repository' in component.build) component.build.repository = 'https://example.org/stuck.git';
    }
    await platform.forTool('demo').components.setConfig(config);
    const [card] = await t.say('/deploy demo --force-build');
    const id = card?.footer?.replace('deployment ', '') as string;
    const postedBefore = t.transcript.posted.length;
    const cancelled = await t.press(button(card, 'Cancel'));
    // One short answer, not a second deployment card: the first card follows it to the end.
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]?.text).toMatch(new RegExp(`^Cancellation requested: deployment ${id} of demo is`));
    expect(cancelled[0]?.title).toBeUndefined();
    expect(cancelled[0]?.buttons ?? []).toEqual([]);
    await idle();
    expect(t.transcript.posted.slice(postedBefore).filter((c) => c.title === 'Deploy demo')).toEqual([]);
    const last = t.transcript.updates.filter((u) => u.card.footer === `deployment ${id}`).at(-1);
    expect(last?.card.text).toContain('Deployment of demo was cancelled.');
    const latestCancels = () => upstreamCount('PUT', 'deployment/latest/cancel');
    const before = await latestCancels();
    const [again] = await t.say('/deployment cancel demo latest');
    expect(again?.status).toBe('danger');
    expect(again?.text).toMatch(/cancel/i);
    // `latest` is cancelled through the service's own latest/cancel route.
    expect(await latestCancels()).toBe(before + 1);
  });
});

describe('builds from chat', () => {
  it('shows the latest build, its log, the quota, and cleans up after confirmation', async () => {
    const [latest] = await t.say('/build latest mytool');
    expect(latest?.title).toBe('Build of mytool');
    const [logs] = await t.say('/build logs mytool latest');
    expect(logs?.title).toMatch(/^Log of build mytool-buildpacks-pipelinerun-/);
    const [quota] = await t.say('/build quota mytool');
    expect(quota?.fields?.[0]?.label).toBe('Registry / Storage');
    const [ask] = await t.say('/build clean mytool');
    const [cleaned] = await t.press(button(ask, 'Confirm'));
    expect(cleaned?.title).toBe('Cleaned mytool');
  });

  it('explains why a finished build cannot be cancelled', async () => {
    const builds = await platform.forTool('mytool').builds.list();
    const done = builds.find((b) => b.status === 'BUILD_SUCCESS');
    const [card] = await t.say(`/build cancel mytool ${done?.build_id}`);
    expect(card?.text).toContain('Nothing to cancel: the build is already ok');
  });
});

describe('configuration and tokens', () => {
  it('shows and generates the components configuration as YAML', async () => {
    const [shown] = await t.say('/config show mytool');
    expect(shown?.code?.text).toContain('components:');
    expect(shown?.code?.text).toContain('web:');
    const [generated] = await t.say('/config generate mytool');
    expect(generated?.text).toContain('Nothing was saved.');
  });

  it('shows token values only in private, and refresh replaces the token', async () => {
    const [channel] = await t.say('/token show mytool');
    expect(channel?.text).toContain('only works in a private conversation');
    expect(JSON.stringify(t.transcript.posted)).not.toContain(
      t.app.emulators.toolhost?.deployTokenFor('mytool') as string,
    );
    const [shown] = await t.say('/token show mytool', { private: true });
    const before = shown?.fields?.[0]?.value;
    expect(before).toBe(t.app.emulators.toolhost?.deployTokenFor('mytool'));
    const [refreshed] = await t.say('/token refresh mytool', { private: true });
    expect(refreshed?.fields?.[0]?.value).not.toBe(before);
    const [exists] = await t.say('/token create mytool', { private: true });
    expect(exists?.status).toBe('danger');
    expect(exists?.text).toContain('mytool already has a deploy token, so none was created.');
    expect(exists?.text).toContain('/deckhand token refresh mytool');
    expect(exists?.text).not.toContain('PUT /tool');
    expect(refreshed?.text).toMatch(
      /It expires on \w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC, in 365 days\./,
    );
  });
});

describe('conversation binding and help', () => {
  it('lets <tool> be left out after /tool bind', async () => {
    await expectReplies(t, [
      ['/tool bind demo', 'bound to demo'],
      ['/jobs list', { title: 'Jobs of demo' }],
      ['/jobs list mytool', { title: 'Jobs of mytool' }],
    ]);
  });

  it("answers /help by section, and each command with its usage and examples, in Slack's form", async () => {
    const [all] = await t.say('/help');
    const overview = all?.fields?.map((f) => `${f.label}: ${f.value}`).join('\n') ?? '';
    expect(overview).toContain('/deckhand deploy');
    expect(overview).toContain('/deckhand subscribe');
    expect(overview).toContain('Calendar (/deckhand help calendar)');
    const [one] = await t.say('/help build start');
    expect(one?.text).toContain('Usage: /deckhand build start <tool> <source_url> [--ref REF]');
    expect(one?.text).toContain('/deckhand build start mytool https://');
    const [none] = await t.say('/help frobnicate');
    expect(none?.text).toContain('There is no command /frobnicate');
  });
});
