/**
 * Contract and lifecycle tests of the builds API emulator, over real HTTP on the internal (mTLS)
 * listener; every response is checked against builds-openapi.yaml.
 */

import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { request as undiciRequest } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Exchange,
  expectConforms,
  type LoadedSpec,
  loadSpec,
  type RecordOptions,
  recordExchange,
  TOOLFORGE_DEVIATIONS,
} from '../support/openapi';
import { useToolhostEmulator } from '../support/toolhost-emulator';
import { waitFor } from '../support/wait';

let sandbox: ToolhostSandbox;
let spec: LoadedSpec;
const { agentFor } = useToolhostEmulator({ stepMs: 10, tools: ['empty', 'busy', 'keeper'] }, (started) => {
  sandbox = started;
});

/** Calls the internal API as `tool` and checks the answer against the spec. */
async function call(tool: string, path: string, options: RecordOptions = {}): Promise<Exchange> {
  const exchange = await recordExchange(sandbox.internalUrl, path, {
    ...options,
    dispatcher: agentFor(tool),
  });
  await expectConforms(spec, exchange, TOOLFORGE_DEVIATIONS.builds);
  return exchange;
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the spec; tests index them freely
type Body = Record<string, any>;
const body = (exchange: Exchange) => exchange.body as Body;
const REPO = 'https://gitlab.wikimedia.org/toolforge-repos/mytool';

async function buildStatus(tool: string, id: string): Promise<string> {
  return body(await call(tool, `/builds/v1/tool/${tool}/builds/${id}`)).build.status;
}

async function startBuild(tool: string, params: Body): Promise<string> {
  const started = await call(tool, `/builds/v1/tool/${tool}/builds`, { method: 'POST', body: params });
  expect(started.status).toBe(200);
  return body(started).new_build.name;
}

beforeAll(async () => {
  spec = await loadSpec('builds');
});

describe('builds API emulator', () => {
  it('serves health and metrics without auth', async () => {
    const health = await recordExchange(sandbox.externalUrl, '/builds/v1/healthz');
    expect(health.status).toBe(200);
    expect(body(health).status).toBe('OK');
    await expectConforms(spec, health);
    const metrics = await recordExchange(sandbox.externalUrl, '/builds/v1/metrics');
    expect(metrics.status).toBe(200);
    await expectConforms(spec, metrics);
  });

  it('lists the seeded builds of mytool, newest first', async () => {
    const list = body(await call('mytool', '/builds/v1/tool/mytool/builds'));
    expect(list.builds.map((build: Body) => build.status)).toEqual(['BUILD_SUCCESS', 'BUILD_FAILURE']);
    expect(list.builds[0].build_id).toMatch(/^mytool-buildpacks-pipelinerun-[a-z0-9]{5}$/);
    expect(list.builds[0].destination_image).toMatch(
      /^tools-harbor\.wmcloud\.org\/tool-mytool\/web:latest@sha256:/,
    );
  });

  it('runs a build PENDING → RUNNING → SUCCESS and streams its logs', async () => {
    const start = await call('mytool', '/builds/v1/tool/mytool/builds', {
      method: 'POST',
      body: { source_url: REPO, ref: 'main', envvars: { MY_VAR: 'x' } },
    });
    const started = body(start).new_build;
    expect(started.resolved_ref).toMatch(/^[0-9a-f]{40}$/);
    expect(started.parameters).toMatchObject({ source_url: REPO, ref: 'main', envvars: { MY_VAR: 'x' } });
    const following = call('mytool', `/builds/v1/tool/mytool/builds/${started.name}/logs?follow=true`);
    const seen: string[] = [];
    await waitFor(
      async () => {
        const status = await buildStatus('mytool', started.name);
        if (seen.at(-1) !== status) seen.push(status);
        return status === 'BUILD_SUCCESS';
      },
      5_000,
      2,
    );
    // Lifecycle order only (no timing): every status seen is a later stage than the one before.
    const order = ['BUILD_PENDING', 'BUILD_RUNNING', 'BUILD_SUCCESS'];
    const stages = seen.map((status) => order.indexOf(status));
    expect(stages.every((stage, i) => stage >= 0 && (i === 0 || stage > (stages[i - 1] ?? -1)))).toBe(true);

    const followed = await following;
    expect(followed.contentType).toMatch(/^text\/plain/);
    const lines = String(followed.body)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).line as string);
    expect(lines[0]).toMatch(/^\[step-init\]/);
    expect(lines.some((line) => line.startsWith('[step-export]'))).toBe(true);

    const latest = body(await call('mytool', '/builds/v1/tool/mytool/builds/latest')).build;
    expect(latest).toMatchObject({
      build_id: started.name,
      status: 'BUILD_SUCCESS',
      resolved_ref: started.resolved_ref,
    });
    expect(latest.start_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(latest.end_time).not.toBe('');
    const plain = await call('mytool', `/builds/v1/tool/mytool/builds/${started.name}/logs`);
    expect(String(plain.body).trim().split('\n')).toHaveLength(lines.length);
  });

  it('fails a build whose source URL contains "fail"', async () => {
    const id = await startBuild('mytool', { source_url: `${REPO}-fail` });
    await waitFor(async () => (await buildStatus('mytool', id)) === 'BUILD_FAILURE');
    const build = body(await call('mytool', `/builds/v1/tool/mytool/builds/${id}`)).build;
    expect(build.message).toContain(`toolforge build logs ${id}`);
    const logs = String((await call('mytool', `/builds/v1/tool/mytool/builds/${id}/logs`)).body);
    expect(logs).toContain('ERROR: failed to build');
  });

  it('cancels a running build once, then answers 409', async () => {
    const id = await startBuild('mytool', { source_url: `${REPO}-stuck` });
    const cancel = await call('mytool', `/builds/v1/tool/mytool/builds/${id}/cancel`, { method: 'PUT' });
    expect(body(cancel)).toMatchObject({ id });
    expect(await buildStatus('mytool', id)).toBe('BUILD_CANCELLED');
    const again = await call('mytool', `/builds/v1/tool/mytool/builds/${id}/cancel`, { method: 'PUT' });
    expect(again.status).toBe(409);
    expect(body(again).error[0]).toContain('already been cancelled');

    const done = body(await call('mytool', '/builds/v1/tool/mytool/builds')).builds.find(
      (build: Body) => build.status === 'BUILD_SUCCESS',
    );
    const completed = await call('mytool', `/builds/v1/tool/mytool/builds/${done.build_id}/cancel`, {
      method: 'PUT',
    });
    expect(completed.status).toBe(409);
    expect(body(completed).error[0]).toContain('already completed');
  });

  it('refuses a fifth unfinished build with 409', async () => {
    const ids = [];
    for (let i = 0; i < 4; i += 1) ids.push(await startBuild('busy', { source_url: `${REPO}-stuck` }));
    const fifth = await call('busy', '/builds/v1/tool/busy/builds', {
      method: 'POST',
      body: { source_url: REPO },
    });
    expect(fifth.status).toBe(409);
    expect(body(fifth).error[0]).toMatch(/parallel/);
    for (const id of ids) await call('busy', `/builds/v1/tool/busy/builds/${id}/cancel`, { method: 'PUT' });
    expect(
      (await call('busy', '/builds/v1/tool/busy/builds', { method: 'POST', body: { source_url: REPO } }))
        .status,
    ).toBe(200);
  });

  it('answers bad start bodies like builds-api', async () => {
    const path = '/builds/v1/tool/mytool/builds';
    const badJson = await recordExchange(sandbox.internalUrl, path, {
      method: 'POST',
      body: '{not json',
      dispatcher: agentFor('mytool'),
    });
    expect(badJson.status).toBe(400);
    expect(typeof badJson.body).toBe('string');
    expect(badJson.body).toMatch(/^Bad parameters passed: /);
    await expectConforms(spec, { ...badJson, request: undefined }, TOOLFORGE_DEVIATIONS.builds);

    const envvar = await call('mytool', path, {
      method: 'POST',
      body: { source_url: REPO, envvars: { X: '1' } },
    });
    expect(envvar.status).toBe(400);
    expect(body(envvar).error[0]).toContain("got 'X'");
    const ref = await call('mytool', path, {
      method: 'POST',
      body: { source_url: REPO, ref: 'does-not-exist' },
    });
    expect(ref.status).toBe(400);
    expect(body(ref).error[0]).toContain('Unable to resolve');
  });

  it('answers 401 for another tool’s build id and 404 for unknown ids', async () => {
    const foreign = await call('demo', '/builds/v1/tool/demo/builds/mytool-buildpacks-pipelinerun-abcde');
    expect(foreign.status).toBe(401);
    expect(body(foreign).error[0]).toContain("does not exist or belong to tool 'demo'");
    const missing = 'mytool-buildpacks-pipelinerun-zzzzz';
    for (const [method, suffix] of [
      ['GET', ''],
      ['DELETE', ''],
      ['PUT', '/cancel'],
      ['GET', '/logs'],
    ] as const) {
      const answer = await call('mytool', `/builds/v1/tool/mytool/builds/${missing}${suffix}`, { method });
      expect(answer.status).toBe(404);
      expect(body(answer).error).toHaveLength(1);
    }
    const none = await call('empty', '/builds/v1/tool/empty/builds/latest');
    expect(none.status).toBe(404);
    expect(body(none).error).toEqual(['No builds exist yet.']);
    expect((await call('empty', '/builds/v1/tool/empty/quotas')).status).toBe(500);
    expect((await call('empty', '/builds/v1/tool/empty/clean', { method: 'POST' })).status).toBe(500);
  });

  it('ends a followed log stream with an in-stream error when the build is deleted', async () => {
    const id = await startBuild('mytool', { source_url: `${REPO}-stuck` });
    await waitFor(async () => (await buildStatus('mytool', id)) === 'BUILD_RUNNING');
    const path = `/builds/v1/tool/mytool/builds/${id}/logs?follow=true`;
    // undici resolves once the headers arrived: the server is streaming (and following) by then.
    const stream = await undiciRequest(`${sandbox.internalUrl}${path}`, { dispatcher: agentFor('mytool') });
    const deleted = await call('mytool', `/builds/v1/tool/mytool/builds/${id}`, { method: 'DELETE' });
    expect(body(deleted)).toMatchObject({ id });
    const text = await stream.body.text();
    const lines = text.trim().split('\n');
    expect(JSON.parse(lines.at(-1) ?? '{}').error[0]).toContain('deleted');
    await expectConforms(
      spec,
      {
        method: 'GET',
        path,
        status: stream.statusCode,
        contentType: String(stream.headers['content-type']),
        body: text,
      },
      TOOLFORGE_DEVIATIONS.builds,
    );
    expect((await call('mytool', `/builds/v1/tool/mytool/builds/${id}`)).status).toBe(404);
  });

  it('reports the registry quota, warns when it is nearly full, and cleans up', async () => {
    const quota = body(await call('mytool', '/builds/v1/tool/mytool/quotas')).quota;
    expect(quota.categories[0]).toMatchObject({
      name: 'Registry',
      items: [{ name: 'Storage', limit: '5.00Gi' }],
    });
    sandbox.controls.setRegistryUsage('mytool', 4.5 * 1024 ** 3);
    const start = body(
      await call('mytool', '/builds/v1/tool/mytool/builds', {
        method: 'POST',
        body: { source_url: `${REPO}-stuck` },
      }),
    );
    expect(start.messages.warning[0]).toMatch(/90% of its registry storage/);
    const clean = body(await call('mytool', '/builds/v1/tool/mytool/clean', { method: 'POST' }));
    expect(clean.messages.info[0]).toMatch(/^Deleted \d+ artifacts from harbor repository tool-mytool\//);
    const after = body(await call('mytool', '/builds/v1/tool/mytool/quotas')).quota;
    expect(after.categories[0].items[0].capacity).toBe('0%');
  });

  it('adds a configured deprecation warning to every response of an operation', async () => {
    sandbox.controls.setDeprecation('builds.list', 'GET /builds is deprecated, use /v2/builds');
    for (let i = 0; i < 2; i += 1) {
      const list = body(await call('mytool', '/builds/v1/tool/mytool/builds'));
      expect(list.messages.warning).toEqual(['GET /builds is deprecated, use /v2/builds']);
    }
    sandbox.controls.setDeprecation('builds.list', undefined);
    expect(body(await call('mytool', '/builds/v1/tool/mytool/builds')).messages).toEqual({});
  });

  it('keeps 4 successful and 2 failed builds per tool', async () => {
    const finish = async (url: string, status: string) => {
      const id = await startBuild('keeper', { source_url: url });
      await waitFor(async () => (await buildStatus('keeper', id)) === status);
    };
    for (let i = 0; i < 5; i += 1) await finish(REPO, 'BUILD_SUCCESS');
    for (let i = 0; i < 3; i += 1) await finish(`${REPO}-fail`, 'BUILD_FAILURE');
    await startBuild('keeper', { source_url: `${REPO}-stuck` });
    const statuses = body(await call('keeper', '/builds/v1/tool/keeper/builds')).builds.map(
      (b: Body) => b.status,
    );
    expect(statuses.filter((s: string) => s === 'BUILD_SUCCESS')).toHaveLength(4);
    expect(statuses.filter((s: string) => s === 'BUILD_FAILURE')).toHaveLength(2);
    expect(statuses[0]).not.toMatch(/SUCCESS|FAILURE/);
  });
});
