/** The builds client against the toolhost sandbox over real HTTPS (mTLS). */

import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { describe, expect, it, onTestFinished } from 'vitest';
import { NotFoundError, UpstreamError } from '../../src/core/errors';
import {
  type BuildLog,
  FINISHED_BUILD_STATUSES,
  splitBuildLogLine,
  type ToolhostClient,
  type ToolhostClientFactory,
} from '../../src/services/toolhost';
import { useToolhostSandboxClient } from '../support/toolhost-sandbox-client';
import { waitFor } from '../support/wait';

const REPO = 'https://gitlab.wikimedia.org/toolforge-repos/mytool';

let sandbox: ToolhostSandbox;
let factory: ToolhostClientFactory;
let mytool: ToolhostClient;

useToolhostSandboxClient({ tool: 'mytool', timeoutMs: 5_000, extraTools: ['fresh'] }, (started) => {
  ({ sandbox, factory, client: mytool } = started);
});

async function finished(client: ToolhostClient, id: string) {
  return waitFor(async () => {
    const build = await client.builds.show(id);
    return FINISHED_BUILD_STATUSES.has(build.status) ? build : undefined;
  }, 10_000);
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('reading builds', () => {
  it('lists the seeded builds, newest first, and shows the latest and one by id', async () => {
    const builds = await mytool.builds.list();
    expect(builds.length).toBeGreaterThanOrEqual(2);
    expect(builds.map((b) => b.status)).toContain('BUILD_FAILURE');
    const latest = await mytool.builds.latest();
    expect(latest.build_id).toMatch(/^mytool-buildpacks-pipelinerun-/);
    const shown = await mytool.builds.show(latest.build_id);
    expect(shown).toEqual(latest);
    expect(shown.parameters?.source_url).toBe(REPO);
  });

  it('names the build in a 404, and treats an id of another tool as not found', async () => {
    const missing = 'mytool-buildpacks-pipelinerun-zzzzz';
    await expect(mytool.builds.show(missing)).rejects.toThrow(
      new NotFoundError(`Build ${missing} not found for tool mytool.`),
    );
    const [demoBuild] = await factory.forTool('demo').builds.list();
    const error = await mytool.builds.show(demoBuild!.build_id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(((error as Error).cause as UpstreamError).status).toBe(401);
  });

  it('says a tool has no builds yet (latest 404)', async () => {
    await expect(factory.forTool('fresh').builds.latest()).rejects.toThrow('Tool fresh has no builds yet.');
  });

  it('reads the quota, and keeps the 500 message for a tool without a registry project', async () => {
    const quota = await mytool.builds.quotas();
    expect(quota.categories[0]?.name).toBe('Registry');
    expect(quota.categories[0]?.items[0]).toMatchObject({
      name: 'Storage',
      capacity: expect.stringMatching(/%$/),
    });
    await expect(factory.forTool('fresh').builds.quotas()).rejects.toMatchObject({
      status: 500,
      message: expect.stringContaining('Quota cannot be displayed because no builds have run yet'),
    });
  });

  it('answers health and metrics without authentication', async () => {
    await expect(mytool.builds.healthz()).resolves.toEqual({ status: 'OK' });
    await expect(mytool.builds.metrics()).resolves.toContain('builds_api_builds');
  });
});

describe('running builds', () => {
  it('starts a build, streams its log while it runs, and sees it succeed', async () => {
    // Steps long enough that the status read after the first line (one request, slow on a busy
    // machine) still finds the build running.
    const stepMs = sandbox.ctx.timings.stepMs;
    sandbox.ctx.timings.stepMs = 300;
    onTestFinished(() => {
      sandbox.ctx.timings.stepMs = stepMs;
    });
    const started = await mytool.builds.start({ source_url: REPO, ref: 'main', image_name: 'logs-demo' });
    expect(started.name).toMatch(/^mytool-buildpacks-pipelinerun-/);
    expect(started.parameters?.image_name).toBe('logs-demo');
    const seen: BuildLog[] = [];
    let statusAtFirstLine: string | undefined;
    for await (const entry of mytool.builds.logs(started.name, { follow: true })) {
      if (seen.length === 0) statusAtFirstLine = (await mytool.builds.show(started.name)).status;
      seen.push(entry);
    }
    expect(['BUILD_PENDING', 'BUILD_RUNNING']).toContain(statusAtFirstLine);
    expect(splitBuildLogLine(seen[0]!.line).container).toBe('step-init');
    const build = await finished(mytool, started.name);
    expect(build.status).toBe('BUILD_SUCCESS');
    expect(build.destination_image).toContain('tool-mytool/logs-demo');
    const again = await collect(mytool.builds.logs(started.name));
    expect(again.map((l) => l.line)).toEqual(seen.map((l) => l.line));
  });

  it('refuses bad parameters with the service message (400)', async () => {
    await expect(
      mytool.builds.start({ source_url: REPO, envvars: { 'bad-name': 'x' } }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('not valid environment variable name'),
    });
    await expect(mytool.builds.start({ source_url: REPO, ref: 'does-not-exist' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("Unable to resolve ref 'does-not-exist'"),
    });
  });

  it('cancels a running build once (409 the second time and for finished builds)', async () => {
    const { name } = await mytool.builds.start({ source_url: `${REPO}-stuck` });
    await expect(mytool.builds.cancel(name)).resolves.toBe(name);
    expect((await mytool.builds.show(name)).status).toBe('BUILD_CANCELLED');
    await expect(mytool.builds.cancel(name)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('already been cancelled'),
    });
    const done = (await mytool.builds.list()).find((b) => b.status === 'BUILD_SUCCESS')!;
    await expect(mytool.builds.cancel(done.build_id)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('already completed'),
    });
  });

  it('answers 409 beyond four parallel builds', async () => {
    const demo = factory.forTool('demo');
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push((await demo.builds.start({ source_url: `${REPO}-stuck` })).name);
    await expect(demo.builds.start({ source_url: REPO })).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('Too many builds running in parallel'),
    });
    for (const id of ids) await demo.builds.cancel(id);
  });

  it('deletes a build (then 404), and yields the lines before an in-stream error', async () => {
    const { name } = await mytool.builds.start({ source_url: `${REPO}-stuck` });
    const lines: string[] = [];
    const streaming = (async () => {
      for await (const entry of mytool.builds.logs(name, { follow: true })) lines.push(entry.line);
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    await waitFor(() => lines.length >= 3);
    await expect(mytool.builds.delete(name)).resolves.toBe(name);
    const error = await streaming;
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({
      status: 500,
      message: expect.stringContaining('was deleted while its logs'),
    });
    expect(lines[0]).toContain('[step-init]');
    await expect(mytool.builds.delete(name)).rejects.toBeInstanceOf(NotFoundError);
    await expect(collect(mytool.builds.logs(name))).rejects.toThrow(
      `Build ${name} not found for tool mytool.`,
    );
  });

  it('stops following when the signal aborts', async () => {
    const { name } = await mytool.builds.start({ source_url: `${REPO}-stuck` });
    const controller = new AbortController();
    const lines: string[] = [];
    for await (const entry of mytool.builds.logs(name, { follow: true, signal: controller.signal })) {
      lines.push(entry.line);
      if (lines.length === 2) controller.abort();
    }
    expect(lines).toHaveLength(2);
    await mytool.builds.cancel(name);
  });

  it('cleans up images and reports what it did; 500 for a tool without a registry project', async () => {
    const summary = await mytool.builds.clean();
    expect(summary.length).toBeGreaterThan(0);
    await expect(factory.forTool('fresh').builds.clean()).rejects.toMatchObject({
      status: 500,
      message: expect.stringContaining('have you started a build yet?'),
    });
  });
});

describe('builds warnings', () => {
  it('surfaces a deprecation warning once per process, however many calls and clients', async () => {
    const warning = 'GET /builds is deprecated, use GET /v2/builds instead.';
    sandbox.controls.setDeprecation('builds.list', warning);
    try {
      await mytool.builds.list();
      await mytool.builds.list();
      expect(mytool.takeWarnings()).toEqual([warning]);
      expect(mytool.takeWarnings()).toEqual([]);
      const another = factory.forTool('demo');
      await another.builds.list();
      expect(another.takeWarnings()).toEqual([]);
    } finally {
      sandbox.controls.setDeprecation('builds.list', undefined);
    }
  });

  it('surfaces the registry quota warning of a build start', async () => {
    const demo = factory.forTool('demo');
    sandbox.controls.setRegistryUsage('demo', 4.5 * 1024 ** 3);
    try {
      const { name } = await demo.builds.start({ source_url: REPO, image_name: 'quota' });
      expect(demo.takeWarnings()).toEqual([expect.stringContaining('of its registry storage quota')]);
      await finished(demo, name);
    } finally {
      sandbox.controls.setRegistryUsage('demo', undefined);
    }
  });
});
