/** The components client (config, deploy token, deployments) against the toolhost sandbox. */

import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/core/errors';
import {
  type Deployment,
  FINISHED_DEPLOYMENT_STATUSES,
  type ToolConfig,
  type ToolhostClient,
  ToolhostClientFactory,
} from '../../src/services/toolhost';
import { useToolhostSandboxClient } from '../support/toolhost-sandbox-client';
import { waitFor } from '../support/wait';

const BETA = 'You are using a beta feature of Toolforge.';

let sandbox: ToolhostSandbox;
let factory: ToolhostClientFactory;
let mytool: ToolhostClient;

useToolhostSandboxClient({ tool: 'mytool', timeoutMs: 5_000, extraTools: ['fresh'] }, (started) => {
  ({ sandbox, factory, client: mytool } = started);
});

async function settled(client: ToolhostClient, id: string): Promise<Deployment> {
  return waitFor(async () => {
    const deployment = await client.components.showDeployment(id);
    return FINISHED_DEPLOYMENT_STATUSES.has(deployment.status) ? deployment : undefined;
  }, 10_000);
}

const FRESH_CONFIG: ToolConfig = {
  config_version: 'v1beta1',
  components: {
    bot: {
      component_type: 'continuous',
      build: { repository: 'https://gitlab.wikimedia.org/toolforge-repos/fresh', ref: 'main' },
      run: { command: 'bot', replicas: 1 },
    },
    daily: {
      component_type: 'scheduled',
      build: { reuse_from: 'bot' },
      run: { command: './daily.sh', schedule: '@daily' },
    },
  },
};

describe('beta warning', () => {
  it('is surfaced once per process although every components answer carries it', async () => {
    const own = ToolhostClientFactory.forSandbox(sandbox, { retries: 0 });
    const heard: string[] = [];
    const own2 = new ToolhostClientFactory({ ...ownOptions(), onWarning: (w) => heard.push(w) });
    try {
      const first = own.forTool('mytool');
      await first.components.getConfig();
      await first.components.listDeployments();
      expect(first.takeWarnings()).toEqual([BETA]);
      expect(first.takeWarnings()).toEqual([]);
      const second = own.forTool('demo');
      await second.components.getConfig();
      expect(second.takeWarnings()).toEqual([]);
      await own2.forTool('mytool').components.getConfig();
      await own2.forTool('demo').components.getConfig();
      expect(heard).toEqual([BETA]);
    } finally {
      await own.close();
      await own2.close();
    }
  });
});

function ownOptions() {
  return {
    externalUrl: sandbox.externalUrl,
    internalUrl: sandbox.internalUrl,
    ca: sandbox.ca,
    certificates: { mytool: sandbox.certFor('mytool'), demo: sandbox.certFor('demo') },
    retries: 0,
  };
}

describe('tool config', () => {
  it('reads the seeded config', async () => {
    const config = await mytool.components.getConfig();
    expect(config.components.web).toMatchObject({ component_type: 'continuous', run: { command: 'web' } });
  });

  it('stores, reads, generates and deletes a config; 404 names the tool', async () => {
    const fresh = factory.forTool('fresh');
    await expect(fresh.components.getConfig()).rejects.toThrow(
      new NotFoundError('Tool fresh has no component configuration yet.'),
    );
    await expect(fresh.components.createDeployment()).rejects.toMatchObject({
      status: 404,
      message: 'No configuration found for tool: fresh',
    });
    const stored = await fresh.components.setConfig(FRESH_CONFIG);
    expect(stored.components.daily).toMatchObject({
      component_type: 'scheduled',
      build: { reuse_from: 'bot' },
    });
    expect((await fresh.components.getConfig()).components.bot).toMatchObject({ run: { command: 'bot' } });
    const generated = await fresh.components.generateConfig();
    expect(Object.keys(generated.components).length).toBeGreaterThan(0);
    const deleted = await fresh.components.deleteConfig();
    expect(Object.keys(deleted.components).sort()).toEqual(['bot', 'daily']);
    await expect(fresh.components.deleteConfig()).rejects.toBeInstanceOf(NotFoundError);
  });

  it('shows the validation message of an invalid config (422)', async () => {
    const bad = { components: { web: { build: { reuse_from: 'x' }, run: {} } } } as unknown as ToolConfig;
    await expect(factory.forTool('fresh').components.setConfig(bad)).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('Validation error at'),
    });
  });
});

describe('deploy token', () => {
  it('creates (409 when one exists), shows, refreshes and deletes the token', async () => {
    const demo = factory.forTool('demo');
    await expect(demo.components.getDeployToken()).rejects.toThrow('Tool demo has no deploy token yet.');
    const created = await demo.components.createDeployToken();
    expect(created.token).toMatch(/^[0-9a-f-]{36}$/);
    await expect(demo.components.createDeployToken()).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('Deploy token already exists'),
    });
    expect(await demo.components.getDeployToken()).toEqual(created);
    const refreshed = await demo.components.refreshDeployToken();
    expect(refreshed.token).not.toBe(created.token);
    expect(sandbox.deployTokenFor('demo')).toBe(refreshed.token);
    await expect(demo.components.deleteDeployToken()).resolves.toEqual(refreshed);
    await expect(demo.components.deleteDeployToken()).rejects.toBeInstanceOf(NotFoundError);
    await expect(demo.components.refreshDeployToken()).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('deployments', () => {
  it('lists, creates (409 while one runs), follows to success, shows latest, deletes', async () => {
    const before = await mytool.components.listDeployments();
    expect(before.length).toBeGreaterThanOrEqual(1);
    const created = await mytool.components.createDeployment({
      description: 'T1: test deploy',
      forceRun: true,
    });
    expect(created).toMatchObject({ description: 'T1: test deploy', force_run: true, force_build: false });
    expect(['pending', 'running']).toContain(created.status);
    await expect(mytool.components.createDeployment()).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining("There's already 1 running"),
    });
    const done = await settled(mytool, created.deploy_id);
    expect(done.status).toBe('successful');
    expect(done.runs.web?.run_status).toBe('successful');
    expect((await mytool.components.latestDeployment()).deploy_id).toBe(created.deploy_id);
    expect((await mytool.components.listDeployments()).map((d) => d.deploy_id)).toContain(created.deploy_id);
    await expect(mytool.components.cancelDeployment(created.deploy_id)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('not pending or running'),
    });
    await expect(mytool.components.deleteDeployment(created.deploy_id)).resolves.toMatchObject({
      deploy_id: created.deploy_id,
    });
    await expect(mytool.components.showDeployment(created.deploy_id)).rejects.toThrow(
      new NotFoundError(`Deployment ${created.deploy_id} not found for tool mytool.`),
    );
  });

  it('cancels a running deployment by id, and through latest/cancel?deployment_id', async () => {
    const first = await mytool.components.createDeployment({ forceBuild: true });
    const cancelling = await mytool.components.cancelDeployment(first.deploy_id);
    expect(cancelling.deploy_id).toBe(first.deploy_id);
    expect((await settled(mytool, first.deploy_id)).status).toBe('cancelled');
    const second = await mytool.components.createDeployment({ forceBuild: true });
    await mytool.components.cancelLatestDeployment(second.deploy_id);
    expect((await settled(mytool, second.deploy_id)).status).toBe('cancelled');
    await expect(mytool.components.cancelDeployment('20990101-000000-nonexisten')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('has an empty list and a clear 404 for a tool that never deployed', async () => {
    const fresh = factory.forTool('fresh');
    await expect(fresh.components.listDeployments()).resolves.toEqual([]);
    await expect(fresh.components.latestDeployment()).rejects.toThrow('Tool fresh has no deployments yet.');
  });

  it('answers health and metrics without authentication', async () => {
    await expect(mytool.components.healthz()).resolves.toEqual({ status: 'OK' });
    await expect(mytool.components.metrics()).resolves.toEqual(expect.any(String));
  });
});
