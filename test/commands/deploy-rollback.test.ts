import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourcehostSandbox } from '../../packages/sandbox/src/sourcehost/index';
import type { Card } from '../../src/core/reply';
import type { ToolConfig } from '../../src/services/toolhost';
import { button, settled, startTestApp, type TestApp } from '../support/app';

let t: TestApp;
let source: SourcehostSandbox;
let repository: string;

const platform = () => t.app.services.toolhost.forTool('mytool');
const webRef = async () => {
  const config = await platform().components.getConfig();
  return (config.components.web?.build as { ref?: string } | undefined)?.ref;
};
/** The last card posted or updated for deployment `id`. */
const lastCardOf = (id: string): Card | undefined =>
  [...t.transcript.posted, ...t.transcript.updates.map((u) => u.card)]
    .filter((card) => card.footer?.includes(`deployment ${id}`))
    .at(-1);
const deployIdOf = (card: Card | undefined) => /deployment (\S+)/.exec(card?.footer ?? '')?.[1] as string;

async function deployAndWait(): Promise<Card | undefined> {
  const [card] = await t.say('/deploy mytool', { user: 'UMAINT' });
  await settled(t.app);
  return lastCardOf(deployIdOf(card));
}

beforeAll(async () => {
  t = await startTestApp();
  source = t.app.emulators.sourcehost as unknown as SourcehostSandbox;
  repository = `${source.webUrl}/toolforge-repos/mytool`;
  const config: ToolConfig = {
    config_version: 'v1beta1',
    components: {
      web: {
        component_type: 'continuous',
        build: { repository, ref: 'main' },
        run: { command: 'web', port: 8000 },
      },
    },
  };
  await platform().components.setConfig(config);
});
afterAll(async () => {
  await t.close();
});

describe('/deployment rollback and /deployment unpin', () => {
  let commitA: string;

  it('after A then a failing B: the card of B lists what changed and offers Roll back', async () => {
    source.controls.pushCommit('toolforge-repos/mytool', 'main', {
      message: 'Serve the index page',
      authorName: 'Mona Lisa',
      login: 'mona',
    });
    commitA = source.controls.pushCommit('toolforge-repos/mytool', 'main', {
      message: 'Add a health check\n\nFor the load balancer.',
      authorName: 'Mona Lisa',
      login: 'mona',
    });
    const a = await deployAndWait();
    expect(a?.text).toContain('finished successfully');

    for (let i = 1; i <= 11; i += 1)
      source.controls.pushCommit('toolforge-repos/mytool', 'main', {
        message: `Tidy module ${i}`,
        authorName: 'Hubot',
      });
    source.controls.pushCommit('toolforge-repos/mytool', 'main', {
      message: 'Switch the web server',
      authorName: 'Mona Lisa',
      login: 'mona',
      failsBuild: true,
    });
    const b = await deployAndWait();
    expect(b?.text).toContain('failed');
    const changed = b?.fields?.find((f) => f.label.startsWith('What changed since'));
    const lines = changed?.value.split('\n') ?? [];
    expect(lines[0]).toMatch(new RegExp(`^web: ${commitA.slice(0, 12)} → [0-9a-f]{12}$`));
    expect(lines[1]).toBe('• Switch the web server — Mona Lisa (@mona)');
    expect(lines[2]).toBe('• Tidy module 11 — Hubot');
    expect(lines).toHaveLength(1 + 10 + 1);
    expect(lines.at(-1)).toBe('+2 more');
    expect(() => button(b, 'Roll back')).not.toThrow();
  });

  it('refuses bad input with a specific message and changes nothing', async () => {
    const [unknown] = await t.say('/deployment rollback mytool --to 20200101-000000-nothinghere', {
      user: 'UMAINT',
    });
    expect(unknown?.text).toContain('Deployment 20200101-000000-nothinghere of mytool does not exist');
    const deployments = await platform().components.listDeployments();
    const failed = deployments.find((d) => d.status === 'failed');
    const [notGood] = await t.say(`/deployment rollback mytool --to ${failed?.deploy_id}`, {
      user: 'UMAINT',
    });
    expect(notGood?.text).toContain('failed: only a successful deployment can be rolled back to');
    const [none] = await t.say('/deployment rollback demo', { user: 'UADMIN' });
    expect(none?.text).toContain('demo has no deployments yet');
    const [nothingPinned] = await t.say('/deployment unpin mytool', { user: 'UMAINT' });
    expect(nothingPinned?.text).toContain('No component of mytool is pinned');
    expect(await webRef()).toBe('main');
    expect((await platform().components.listDeployments()).length).toBe(deployments.length);
  });

  it("pressing Roll back shows the plan, deploys A's commit with the pin, and unpin restores the branch", async () => {
    const since = Date.now();
    const failedId = (await platform().components.listDeployments()).find((d) => d.status === 'failed')
      ?.deploy_id as string;
    const [ask] = await t.press(button(lastCardOf(failedId), 'Roll back'), { user: 'UMAINT' });
    expect(ask?.title).toBe('Please confirm');
    expect(ask?.code?.text).toMatch(new RegExp(`web +[0-9a-f]{12} +${commitA.slice(0, 12)} +main`));
    expect(await webRef()).toBe('main');

    const [card] = await t.press(button(ask, 'Confirm'), { user: 'UMAINT' });
    expect(card?.text).toContain(`→ ${commitA.slice(0, 12)}`);
    expect(await webRef()).toBe(commitA);
    await settled(t.app);
    const done = lastCardOf(deployIdOf(card));
    expect(done?.text).toContain('finished successfully');
    expect(done?.text).toMatch(
      new RegExp(
        `Pinned to commits \\(web @ ${commitA.slice(0, 12)}\\)\\. /(deckhand )?deployment unpin mytool returns`,
      ),
    );
    const rolledBack = await platform().components.showDeployment(deployIdOf(card));
    const buildId = rolledBack.builds.web?.build_id as string;
    const built = buildId.startsWith('no-')
      ? (await platform().builds.list()).find(
          (b) => b.resolved_ref === commitA && b.status === 'BUILD_SUCCESS',
        )
      : await platform().builds.show(buildId);
    expect(built?.resolved_ref).toBe(commitA);

    const [unpinned] = await t.say('/deployment unpin mytool', { user: 'UMAINT' });
    expect(unpinned?.text).toContain(`web follows main again (was pinned to ${commitA.slice(0, 12)})`);
    expect(await webRef()).toBe('main');

    const audited = (await t.app.services.accounts.audit.recent({ tool: 'mytool', limit: 50 }))
      .filter((e) => e.at >= since)
      .map((e) => [e.command, e.outcome]);
    expect(audited.filter(([command]) => command === 'deployment rollback')).toHaveLength(1);
    expect(audited.filter(([command]) => command === 'deployment unpin')).toEqual([
      ['deployment unpin', 'ok'],
    ]);
  });
});
