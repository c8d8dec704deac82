/**
 * Contract and lifecycle tests of the components API emulator, over real HTTP on the internal
 * (mTLS) listener; every response is checked against components-openapi.yaml.
 */

import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { componentsStoreOf } from '@deckhand/sandbox/toolhost/components-store';
import type { AppliedJob } from '@deckhand/sandbox/toolhost/context';
import { MYTOOL_CONFIG, seededRepository } from '@deckhand/sandbox/toolhost/seed';
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
const { agentFor } = useToolhostEmulator(
  { stepMs: 10, tools: ['fresh', 'slow'], deploymentTimeoutMs: 2000 },
  (started) => {
    sandbox = started;
  },
);
const applied: Array<{ tool: string; job: AppliedJob }> = [];
const restarted: string[] = [];
const envvars: Array<[string, string, string | undefined]> = [];

/**
 * Calls the internal API as `tool` and checks the answer (and, unless `invalid` says the request is
 * wrong on purpose, the request) against the spec.
 */
async function call(
  tool: string,
  path: string,
  options: RecordOptions & { invalid?: boolean } = {},
): Promise<Exchange> {
  const { invalid, ...rest } = options;
  const exchange = await recordExchange(sandbox.internalUrl, path, { ...rest, dispatcher: agentFor(tool) });
  const checked = invalid ? { ...exchange, request: undefined } : exchange;
  await expectConforms(spec, checked, TOOLFORGE_DEVIATIONS.components);
  return exchange;
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the spec; tests index them freely
type Body = Record<string, any>;
const data = (exchange: Exchange) => (exchange.body as Body).data as Body;
const errors = (exchange: Exchange) => (exchange.body as Body).messages.error as string[];
const base = (tool: string) => `/components/v1/tool/${tool}`;

function configWith(repository: string) {
  return {
    config_version: 'v1beta1',
    components: {
      web: {
        component_type: 'continuous',
        build: { repository, ref: 'main' },
        run: { command: 'web', port: 8000 },
      },
    },
  };
}

async function deployment(tool: string, id: string): Promise<Body> {
  return data(await call(tool, `${base(tool)}/deployment/${id}`));
}

/** Polls a deployment until it leaves pending/running; returns the statuses seen, in order. */
async function follow(tool: string, id: string): Promise<{ seen: string[]; final: Body }> {
  const seen: string[] = [];
  let final: Body = {};
  await waitFor(
    async () => {
      final = await deployment(tool, id);
      if (seen.at(-1) !== final.status) seen.push(final.status);
      return !['pending', 'running', 'cancelling'].includes(final.status);
    },
    5_000,
    2,
  );
  return { seen, final };
}

beforeAll(async () => {
  spec = await loadSpec('components');
  // Deterministic fakes of the other areas, so these tests pin only the components behaviour.
  sandbox.ctx.jobs = {
    applyJob: (tool, job) => {
      applied.push({ tool, job });
      return applied.filter((entry) => entry.job.name === job.name && entry.tool === tool).length === 1;
    },
    restartJob: (_tool, name) => {
      restarted.push(name);
      return true;
    },
  };
  sandbox.ctx.envvars = {
    setEnvvar: (tool, name, value) => envvars.push([tool, name, value]),
    deleteEnvvar: (tool, name) => envvars.push([tool, name, undefined]),
  };
});

describe('components API emulator: config', () => {
  it('serves health and metrics without auth', async () => {
    const health = await recordExchange(sandbox.externalUrl, '/components/v1/healthz');
    expect(health.body).toEqual({
      data: { status: 'OK' },
      messages: { info: [], warning: ['You are using a beta feature of Toolforge.'], error: [] },
    });
    await expectConforms(spec, health);
    const metrics = await recordExchange(sandbox.externalUrl, '/components/metrics');
    expect(metrics.status).toBe(200);
    await expectConforms(spec, metrics, TOOLFORGE_DEVIATIONS.components);
  });

  it('returns the seeded config in the envelope', async () => {
    const config = await call('mytool', `${base('mytool')}/config`);
    expect(data(config).components.web).toMatchObject({
      component_type: 'continuous',
      build: { repository: 'https://gitlab.wikimedia.org/toolforge-repos/mytool', ref: 'main' },
      run: { command: 'web' },
    });
    expect((config.body as Body).messages.warning).toEqual(['You are using a beta feature of Toolforge.']);
    expect(Object.keys(data(await call('demo', `${base('demo')}/config`)).components)).toEqual([
      'api',
      'nightly',
    ]);
  });

  it('stores a valid config, warning about unknown fields', async () => {
    const body = { ...configWith('https://gitlab.wikimedia.org/toolforge-repos/fresh'), colour: 'blue' };
    const saved = await call('fresh', `${base('fresh')}/config`, { method: 'POST', body });
    expect(saved.status).toBe(200);
    expect((saved.body as Body).messages.info).toEqual(['Configuration for fresh updated successfully.']);
    expect((saved.body as Body).messages.warning).toContain('Unknown field colour, skipped');
    expect(data(await call('fresh', `${base('fresh')}/config`)).colour).toBeUndefined();
  });

  it('answers 422 with pydantic-style messages for invalid configs and JSON', async () => {
    const missing = await call('fresh', `${base('fresh')}/config`, {
      method: 'POST',
      body: { components: { web: { build: { repository: 'https://example.org/x', ref: 'main' }, run: {} } } },
      invalid: true,
    });
    expect(missing.status).toBe(422);
    expect(errors(missing)[0]).toBe(
      "Validation error at components -> web -> run -> command: Field required. Received value: '{}'",
    );
    expect((missing.body as Body).data).toBeUndefined();

    const badType = await call('fresh', `${base('fresh')}/config`, {
      method: 'POST',
      body: {
        components: {
          job: {
            component_type: 'scheduled',
            build: { reuse_from: 'web' },
            run: { command: 'x', schedule: '@daily', retry: 9 },
          },
        },
      },
      invalid: true,
    });
    expect(badType.status).toBe(422);
    expect(errors(badType)).toContain(
      "Validation error at components -> job -> run -> retry: Input should be less than or equal to 5. Received value: '9'",
    );

    const badJson = await recordExchange(sandbox.internalUrl, `${base('fresh')}/config`, {
      method: 'POST',
      body: '{"components": ',
      dispatcher: agentFor('fresh'),
    });
    expect(badJson.status).toBe(422);
    expect(errors(badJson)[0]).toMatch(/^Invalid JSON at position \d+/);
    await expectConforms(spec, { ...badJson, request: undefined }, TOOLFORGE_DEVIATIONS.components);

    const badQuery = await call('fresh', `${base('fresh')}/config?rebuild_storage=maybe`);
    expect(badQuery.status).toBe(422);
    expect(errors(badQuery)[0]).toMatch(
      /^Validation error at rebuild_storage: Input should be a valid boolean/,
    );
  });

  it('generates an example config and deletes configs', async () => {
    const generated = await call('fresh', `${base('fresh')}/config/generate`);
    expect(Object.keys(data(generated).components).length).toBeGreaterThan(0);
    expect((generated.body as Body).messages.warning[0]).toMatch(
      /^Note that this config is an autogenerated example/,
    );
    const deleted = await call('slow', `${base('slow')}/config`, { method: 'DELETE' });
    expect(deleted.status).toBe(404);
    expect(errors(deleted)).toEqual(['No configuration found for tool: slow']);
  });
});

describe('components API emulator: deploy tokens', () => {
  it('shows, refuses to re-create, refreshes and deletes a token', async () => {
    const shown = data(await call('mytool', `${base('mytool')}/deployment/token`));
    expect(shown.token).toBe(sandbox.deployTokenFor('mytool'));
    const again = await call('mytool', `${base('mytool')}/deployment/token`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(errors(again)[0]).toMatch(/^Deploy token already exists/);

    const refreshed = data(await call('mytool', `${base('mytool')}/deployment/token`, { method: 'PUT' }));
    expect(refreshed.token).not.toBe(shown.token);
    expect(envvars.at(-1)).toEqual(['mytool', 'TOOL_DEPLOY_TOKEN', refreshed.token]);

    expect((await call('fresh', `${base('fresh')}/deployment/token`)).status).toBe(404);
    expect((await call('fresh', `${base('fresh')}/deployment/token`, { method: 'PUT' })).status).toBe(404);
    expect((await call('fresh', `${base('fresh')}/deployment/token`, { method: 'DELETE' })).status).toBe(404);
    const created = await call('fresh', `${base('fresh')}/deployment/token`, { method: 'POST' });
    expect(data(created).token).toMatch(/^[0-9a-f-]{36}$/);
    const deleted = await call('fresh', `${base('fresh')}/deployment/token`, { method: 'DELETE' });
    expect(data(deleted).token).toBe(data(created).token);
    expect(envvars.at(-1)).toEqual(['fresh', 'TOOL_DEPLOY_TOKEN', undefined]);
  });
});

describe('components API emulator: deployments', () => {
  it('lists deployments, empty rather than 404', async () => {
    const seeded = data(await call('mytool', `${base('mytool')}/deployment`)).deployments;
    expect(seeded).toHaveLength(1);
    expect(seeded[0]).toMatchObject({ status: 'successful', description: 'Initial deployment' });
    expect(seeded[0].deploy_id).toMatch(/^\d{8}-\d{6}-[a-z0-9]{10}$/);
    expect(data(await call('demo', `${base('demo')}/deployment`))).toEqual({ deployments: [] });
    expect((await call('demo', `${base('demo')}/deployment/latest`)).status).toBe(404);
  });

  it('deploys mytool pending → running → successful, reusing its build', async () => {
    const created = await call('mytool', `${base('mytool')}/deployment`, {
      method: 'POST',
      body: { description: 'from the tests' },
    });
    const id = data(created).deploy_id;
    expect(data(created)).toMatchObject({
      status: 'pending',
      description: 'from the tests',
      force_build: false,
    });
    expect(data(created).builds.web).toEqual({
      build_id: 'no-id-yet',
      build_status: 'pending',
      build_image: 'no-image-yet',
      build_long_status: '',
    });
    const second = await call('mytool', `${base('mytool')}/deployment`, { method: 'POST' });
    expect(second.status).toBe(409);
    expect(errors(second)[0]).toMatch(/^There's already 1 running/);

    const { seen, final } = await follow('mytool', id);
    expect(seen.at(-1)).toBe('successful');
    expect(seen.filter((status) => status !== 'running' && status !== 'pending')).toEqual(['successful']);
    expect(seen.indexOf('pending')).toBeLessThanOrEqual(0);
    expect(final.builds.web).toMatchObject({ build_id: 'no-build-needed', build_status: 'skipped' });
    expect(final.runs.web).toMatchObject({ run_status: 'successful' });
    expect(applied.at(-1)).toEqual({
      tool: 'mytool',
      job: {
        name: 'web',
        cmd: 'web',
        imagename: 'tool-mytool/web:latest',
        job_type: 'continuous',
        port: 8000,
        publish: '/',
      },
    });
    expect(data(await call('mytool', `${base('mytool')}/deployment/latest`)).deploy_id).toBe(id);
  });

  it('builds when forced and restarts an unchanged job when force-run is set', async () => {
    const created = await call('mytool', `${base('mytool')}/deployment?force-build=true&force-run=true`, {
      method: 'POST',
    });
    const { final } = await follow('mytool', data(created).deploy_id);
    expect(final).toMatchObject({ status: 'successful', force_build: true, force_run: true });
    expect(final.builds.web.build_id).toMatch(/^mytool-buildpacks-pipelinerun-/);
    expect(final.builds.web.build_status).toBe('successful');
    expect(final.builds.web.build_image).toMatch(/tool-mytool\/web:latest@sha256:/);
    expect(restarted).toContain('web');
  });

  it('fails when a build fails, naming the component', async () => {
    await call('fresh', `${base('fresh')}/config`, {
      method: 'POST',
      body: configWith('https://gitlab.wikimedia.org/toolforge-repos/will-fail'),
    });
    const created = await call('fresh', `${base('fresh')}/deployment`, { method: 'POST' });
    const { final } = await follow('fresh', data(created).deploy_id);
    expect(final.status).toBe('failed');
    expect(final.long_status).toMatch(/Some builds failed.*web\(id:fresh-buildpacks-pipelinerun-/);
    expect(final.builds.web.build_status).toBe('failed');
    expect(final.runs.web.run_status).toBe('skipped');
  });

  it('cancels a running deployment once, by id and through latest/cancel', async () => {
    await call('fresh', `${base('fresh')}/config`, {
      method: 'POST',
      body: configWith('https://gitlab.wikimedia.org/toolforge-repos/stuck'),
    });
    const first = data(await call('fresh', `${base('fresh')}/deployment`, { method: 'POST' })).deploy_id;
    const cancel = await call('fresh', `${base('fresh')}/deployment/${first}/cancel`, { method: 'PUT' });
    expect(data(cancel).status).toBe('cancelling');
    expect((cancel.body as Body).messages.info[0]).toMatch(/flagged for cancellation/);
    const { final } = await follow('fresh', first);
    expect(final.status).toBe('cancelled');
    const again = await call('fresh', `${base('fresh')}/deployment/${first}/cancel`, { method: 'PUT' });
    expect(again.status).toBe(409);

    const second = data(await call('fresh', `${base('fresh')}/deployment`, { method: 'POST' })).deploy_id;
    const noId = await call('fresh', `${base('fresh')}/deployment/latest/cancel`, { method: 'PUT' });
    expect(noId.status).toBe(422);
    expect(errors(noId)).toEqual(['Validation error at deployment_id: Field required']);
    const latest = await call('fresh', `${base('fresh')}/deployment/latest/cancel?deployment_id=latest`, {
      method: 'PUT',
    });
    expect(data(latest)).toMatchObject({ deploy_id: second, status: 'cancelling' });
    expect((await follow('fresh', second)).final.status).toBe('cancelled');
    expect((await call('fresh', `${base('fresh')}/deployment/nope/cancel`, { method: 'PUT' })).status).toBe(
      404,
    );
  });

  it('times out a deployment stuck longer than the limit', async () => {
    await call('slow', `${base('slow')}/config`, {
      method: 'POST',
      body: configWith('https://gitlab.wikimedia.org/toolforge-repos/stuck'),
    });
    const id = data(await call('slow', `${base('slow')}/deployment`, { method: 'POST' })).deploy_id;
    const { final } = await follow('slow', id);
    expect(final.status).toBe('timed_out');
    expect(final.runs.web.run_status).toBe('skipped');
  });

  it('deletes deployments and answers 404 and 422 like the real service', async () => {
    const id = data(await call('fresh', `${base('fresh')}/deployment/latest`)).deploy_id;
    const deleted = await call('fresh', `${base('fresh')}/deployment/${id}`, { method: 'DELETE' });
    expect(data(deleted).deploy_id).toBe(id);
    expect((await call('fresh', `${base('fresh')}/deployment/${id}`)).status).toBe(404);
    expect((await call('fresh', `${base('fresh')}/deployment/${id}`, { method: 'DELETE' })).status).toBe(404);

    await call('fresh', `${base('fresh')}/config`, { method: 'DELETE' });
    const noConfig = await call('fresh', `${base('fresh')}/deployment`, { method: 'POST' });
    expect(noConfig.status).toBe(404);
    expect(errors(noConfig)).toEqual(['No configuration found for tool: fresh']);
    const badFlag = await call('demo', `${base('demo')}/deployment?force-build=sometimes`, {
      method: 'POST',
    });
    expect(badFlag.status).toBe(422);
    const badBody = await call('demo', `${base('demo')}/deployment`, {
      method: 'POST',
      body: { description: 5 },
      invalid: true,
    });
    expect(badBody.status).toBe(422);
  });

  it('applies both components of demo, the scheduled one reusing the build of api', async () => {
    const id = data(await call('demo', `${base('demo')}/deployment`, { method: 'POST' })).deploy_id;
    const { final } = await follow('demo', id);
    expect(final.status).toBe('successful');
    expect(final.builds.nightly).toMatchObject({ build_id: 'no-build-needed', build_status: 'successful' });
    const jobs = applied.filter((entry) => entry.tool === 'demo').map((entry) => entry.job);
    expect(jobs).toEqual([
      { name: 'api', cmd: 'web', imagename: 'tool-demo/api:latest', job_type: 'continuous', port: 8000 },
      {
        name: 'nightly',
        cmd: './nightly.sh',
        imagename: 'tool-demo/api:latest',
        job_type: 'scheduled',
        schedule: '@daily',
      },
    ]);
  });

  it('deploys a component typed scheduled whose run has no schedule as a continuous job, as the real service does', async () => {
    // components-api validates a component as the union of the two run shapes and deploys by the
    // shape its run matches, whatever `component_type` says (components/models/api_models.py,
    // components/deploy_task.py; see specs/audit-services.md).
    const config = {
      config_version: 'v1beta1',
      components: {
        worker: {
          component_type: 'scheduled',
          build: { repository: seededRepository('mytool'), ref: 'main' },
          run: { command: './worker.sh' },
        },
      },
    };
    const stored = await call('mytool', `${base('mytool')}/config`, { method: 'POST', body: config });
    expect(stored.status).toBe(200);
    const id = data(await call('mytool', `${base('mytool')}/deployment`, { method: 'POST' })).deploy_id;
    const { final } = await follow('mytool', id);
    expect(final.status).toBe('successful');
    const worker = applied.filter((entry) => entry.tool === 'mytool' && entry.job.name === 'worker').at(-1);
    expect(worker?.job).toMatchObject({ name: 'worker', cmd: './worker.sh', job_type: 'continuous' });
    expect(worker?.job.schedule).toBeUndefined();
    await call('mytool', `${base('mytool')}/config`, { method: 'POST', body: MYTOOL_CONFIG });
  });

  it('keeps the newest 25 deployments', async () => {
    const store = componentsStoreOf(sandbox.ctx);
    const options = { description: '', forceBuild: false, forceRun: false };
    const first = store.create('slow', MYTOOL_CONFIG, options).data.deploy_id;
    for (let i = 0; i < 25; i += 1) store.create('slow', MYTOOL_CONFIG, options);
    const list = data(await call('slow', `${base('slow')}/deployment`)).deployments as Body[];
    expect(list).toHaveLength(25);
    expect(list.map((entry) => entry.deploy_id)).not.toContain(first);
  });
});
