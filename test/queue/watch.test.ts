import { describe, expect, it } from 'vitest';
import type { MessageHandle } from '../../src/core/command';
import type { ToolhostClientFactory } from '../../src/services/toolhost';
import type { TestApp } from '../support/app';
import { useToolhostApp } from '../support/toolhost-app';
import { waitFor } from '../support/wait';

let t: TestApp;
let platform: ToolhostClientFactory;
let cards = 0;

useToolhostApp((started) => {
  ({ t, platform } = started);
});

const client = (tool: string) => platform.forTool(tool);

function newHandle(): MessageHandle {
  cards += 1;
  return { platform: 'slack', conversationId: 'slack:T1:CWATCH', ref: { ts: `watch-${cards}` } };
}

/** The last version of a card, once the watch of `ref` has finished. */
async function finalCard(handle: MessageHandle) {
  await waitFor(async () => (await t.app.services.watches.activeCount()) === 0, 20_000);
  const updates = t.transcript.updates.filter((u) => u.handle.ref.ts === handle.ref.ts);
  return updates.at(-1)?.card;
}

async function setRepository(tool: string, repository: string) {
  const config = await client(tool).components.getConfig();
  for (const component of Object.values(config.components)) {
    if ('repository' in component.build) component.build.repository = repository;
  }
  await client(tool).components.setConfig(config);
}

/**
 * Starts a deployment of `tool` and watches it on a fresh card. With a `repository`, the tool's
 * components build from it first (and the deployment forces a build).
 */
async function watchNewDeployment(tool: string, repository?: string) {
  if (repository) await setRepository(tool, repository);
  const handle = newHandle();
  const { deploy_id } = await client(tool).components.createDeployment(
    repository ? { forceBuild: true } : {},
  );
  await t.app.services.watches.start({ kind: 'deployment', tool, id: deploy_id, handle });
  return { handle, id: deploy_id };
}

/** The Status field of a deployment card. */
const statusOf = (card: Awaited<ReturnType<typeof finalCard>>) =>
  card?.fields?.find((f) => f.label === 'Status')?.value;

describe('durable watches', () => {
  it('follow a deployment to successful', async () => {
    const { handle } = await watchNewDeployment('mytool');
    const card = await finalCard(handle);
    expect(card?.status).toBe('success');
    expect(statusOf(card)).toBe('successful');
  });

  it('follow a deployment to failed when a build fails', async () => {
    const { handle } = await watchNewDeployment(
      'demo',
      'https://gitlab.wikimedia.org/toolforge-repos/fail-demo',
    );
    const card = await finalCard(handle);
    expect(card?.status).toBe('danger');
    expect(statusOf(card)).toBe('failed');
  });

  it('follow a deployment to cancelled', async () => {
    const { handle, id } = await watchNewDeployment(
      'demo',
      'https://gitlab.wikimedia.org/toolforge-repos/stuck-demo',
    );
    await waitFor(() =>
      t.transcript.updates.some(
        (u) => u.handle.ref.ts === handle.ref.ts && u.card.fields?.some((f) => f.value === 'running'),
      ),
    );
    await client('demo').components.cancelDeployment(id);
    const card = await finalCard(handle);
    expect(statusOf(card)).toBe('cancelled');
    expect(card?.buttons?.map((b) => b.label)).toContain('Redeploy');
  });

  it('follow a stuck deployment until the platform times it out', async () => {
    const { handle } = await watchNewDeployment(
      'demo',
      'https://gitlab.wikimedia.org/toolforge-repos/stuck-demo',
    );
    const card = await finalCard(handle);
    expect(statusOf(card)).toBe('timed_out');
    expect(card?.status).toBe('danger');
  });

  it('follow a build to ok, error and cancelled', async () => {
    const ok = newHandle();
    const bad = newHandle();
    const stopped = newHandle();
    const a = await client('mytool').builds.start({ source_url: 'https://example.org/good.git' });
    const b = await client('mytool').builds.start({ source_url: 'https://example.org/fail.git' });
    const c = await client('mytool').builds.start({ source_url: 'https://example.org/stuck.git' });
    await t.app.services.watches.start({ kind: 'build', tool: 'mytool', id: a.name, handle: ok });
    await t.app.services.watches.start({ kind: 'build', tool: 'mytool', id: b.name, handle: bad });
    await t.app.services.watches.start({ kind: 'build', tool: 'mytool', id: c.name, handle: stopped });
    await waitFor(async () => (await client('mytool').builds.show(c.name)).status === 'BUILD_RUNNING');
    await client('mytool').builds.cancel(c.name);
    expect((await finalCard(ok))?.fields?.[0]).toEqual({ label: 'Status', value: 'ok', inline: true });
    expect((await finalCard(bad))?.fields?.[0]?.value).toBe('error');
    expect((await finalCard(stopped))?.fields?.[0]?.value).toBe('cancelled');
  });

  it('end with a clear note when the resource is deleted upstream', async () => {
    const handle = newHandle();
    const build = await client('mytool').builds.start({ source_url: 'https://example.org/stuck.git' });
    await t.app.services.watches.start({ kind: 'build', tool: 'mytool', id: build.name, handle });
    await waitFor(() => t.transcript.updates.some((u) => u.handle.ref.ts === handle.ref.ts));
    await client('mytool').builds.delete(build.name);
    const card = await finalCard(handle);
    expect(card?.status).toBe('warning');
    expect(card?.text).toContain(
      `Deckhand stopped following build ${build.name}: it no longer exists on the platform`,
    );
  });

  it('keep exactly one watch per resource; a second request only adds its card', async () => {
    const first = newHandle();
    const second = newHandle();
    const build = await client('demo').builds.start({ source_url: 'https://example.org/two-cards.git' });
    await t.app.services.watches.start({ kind: 'build', tool: 'demo', id: build.name, handle: first });
    await t.app.services.watches.start({ kind: 'build', tool: 'demo', id: build.name, handle: second });
    const jobs = await t.app.queues.watch.getJobs(['active', 'waiting', 'delayed']);
    expect(jobs.filter((job) => job.data.id === build.name)).toHaveLength(1);
    expect((await finalCard(first))?.fields?.[0]?.value).toBe('ok');
    expect((await finalCard(second))?.fields?.[0]?.value).toBe('ok');
  });
});
