/**
 * The gateway's authentication in the tool hosting sandbox: client certificates on the internal
 * listener, deploy tokens on the external one, and the per-API error shapes of refusals.
 */

import {
  createSandboxContext,
  createToolhostApp,
  startToolhostSandbox,
  type ToolhostSandbox,
} from '@deckhand/sandbox/toolhost';
import { toolAuth } from '@deckhand/sandbox/toolhost/auth';
import { untrustedClientCert } from '@deckhand/sandbox/toolhost/certs';
import { seedToolhost } from '@deckhand/sandbox/toolhost/seed';
import { Hono } from 'hono';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Exchange,
  expectConforms,
  type LoadedSpec,
  loadSpec,
  recordExchange,
  TOOLFORGE_DEVIATIONS,
} from '../support/openapi';

let sandbox: ToolhostSandbox;
let builds: LoadedSpec;
let components: LoadedSpec;
const agents: Agent[] = [];

function agent(connect: { cert?: string; key?: string }): Agent {
  const created = new Agent({ connect: { ca: sandbox.ca, ...connect } });
  agents.push(created);
  return created;
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the spec; tests index them freely
type Body = Record<string, any>;
const body = (exchange: Exchange) => exchange.body as Body;

beforeAll(async () => {
  sandbox = await startToolhostSandbox({ stepMs: 10 });
  [builds, components] = await Promise.all([loadSpec('builds'), loadSpec('components')]);
});

afterAll(async () => {
  await sandbox.close();
  await Promise.all(agents.map((created) => created.close()));
});

describe('internal listener (mTLS)', () => {
  it('identifies the tool by its client certificate', async () => {
    const mine = agent(sandbox.certFor('mytool'));
    const list = await recordExchange(sandbox.internalUrl, '/builds/v1/tool/mytool/builds', {
      dispatcher: mine,
    });
    expect(list.status).toBe(200);
    await expectConforms(builds, list);
    const config = await recordExchange(sandbox.internalUrl, '/components/v1/tool/mytool/config', {
      dispatcher: mine,
    });
    expect(config.status).toBe(200);
  });

  it('answers 403 to a path of another tool, in each API’s shape', async () => {
    const demo = agent(sandbox.certFor('demo'));
    const build = await recordExchange(sandbox.internalUrl, '/builds/v1/tool/mytool/builds', {
      dispatcher: demo,
    });
    expect(build.status).toBe(403);
    expect(body(build).error[0]).toMatch(/'demo' is not allowed .* 'mytool'/);
    await expectConforms(builds, build, TOOLFORGE_DEVIATIONS.builds);
    const config = await recordExchange(sandbox.internalUrl, '/components/v1/tool/mytool/config', {
      dispatcher: demo,
    });
    expect(config.status).toBe(403);
    expect(body(config).messages.error).toHaveLength(1);
    await expectConforms(components, config, TOOLFORGE_DEVIATIONS.components);
  });

  it('refuses tool routes without a certificate or with an untrusted one, but serves health', async () => {
    const anonymous = agent({});
    const refused = await recordExchange(sandbox.internalUrl, '/builds/v1/tool/mytool/builds', {
      dispatcher: anonymous,
    });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ message: 'Unauthorized' });
    await expectConforms(builds, refused);
    const health = await recordExchange(sandbox.internalUrl, '/components/v1/healthz', {
      dispatcher: anonymous,
    });
    expect(health.status).toBe(200);

    const rogue = agent(await untrustedClientCert('mytool'));
    const forged = await recordExchange(sandbox.internalUrl, '/components/v1/tool/mytool/config', {
      dispatcher: rogue,
    });
    expect(forged.status).toBe(401);
    await expectConforms(components, forged, TOOLFORGE_DEVIATIONS.components);
  });

  it('also accepts the deploy token on deployment create', async () => {
    const anonymous = agent({});
    const token = sandbox.deployTokenFor('mytool');
    const created = await recordExchange(
      sandbox.internalUrl,
      `/components/v1/tool/mytool/deployment?token=${token}`,
      {
        method: 'POST',
        dispatcher: anonymous,
      },
    );
    expect(created.status).toBe(200);
    await expectConforms(components, created, TOOLFORGE_DEVIATIONS.components);
  });
});

describe('external listener (deploy tokens only)', () => {
  const deployment = (tool: string, query: string) => `/components/v1/tool/${tool}/deployment${query}`;

  it('creates and shows deployments with the deploy token only', async () => {
    const token = sandbox.deployTokenFor('mytool');
    const latest = await recordExchange(sandbox.internalUrl, '/components/v1/tool/mytool/deployment/latest', {
      dispatcher: agent(sandbox.certFor('mytool')),
    });
    const id = body(latest).data.deploy_id;
    const shown = await recordExchange(
      sandbox.externalUrl,
      `/components/v1/tool/mytool/deployment/${id}?token=${token}`,
    );
    expect(shown.status).toBe(200);
    await expectConforms(components, shown, TOOLFORGE_DEVIATIONS.components);

    const notLatest = await recordExchange(
      sandbox.externalUrl,
      `/components/v1/tool/mytool/deployment/latest?token=${token}`,
    );
    expect(notLatest.status).toBe(401);
    const notList = await recordExchange(sandbox.externalUrl, deployment('mytool', `?token=${token}`));
    expect(notList.status).toBe(401);
    await expectConforms(components, notList, TOOLFORGE_DEVIATIONS.components);
  });

  it('explains bad, missing and expired tokens with 401', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['mytool', '', /header or a token are required/],
      ['mytool', '?token=00000000-0000-4000-8000-000000000000', /does not match/],
      ['demo', '?token=00000000-0000-4000-8000-000000000000', /has no deploy token yet/],
    ];
    for (const [tool, query, message] of cases) {
      const refused = await recordExchange(sandbox.externalUrl, deployment(tool, query), { method: 'POST' });
      expect(refused.status).toBe(401);
      expect(body(refused).messages.error[0]).toMatch(message);
      await expectConforms(components, refused, TOOLFORGE_DEVIATIONS.components);
    }
    const token = sandbox.deployTokenFor('mytool');
    sandbox.controls.expireDeployToken('mytool');
    const expired = await recordExchange(sandbox.externalUrl, deployment('mytool', `?token=${token}`), {
      method: 'POST',
    });
    expect(expired.status).toBe(401);
    expect(body(expired).messages.error[0]).toMatch(/has expired/);
  });

  it('answers every other tool endpoint with 401 in that API’s shape', async () => {
    const build = await recordExchange(sandbox.externalUrl, '/builds/v1/tool/mytool/builds');
    expect(build.status).toBe(401);
    expect(build.body).toEqual({ message: 'Unauthorized' });
    await expectConforms(builds, build);
    const token = await recordExchange(sandbox.externalUrl, '/components/v1/tool/mytool/deployment/token');
    expect(token.status).toBe(401);
    expect(body(token).messages.error).toEqual(["The 'x-toolforge-tool' header is required"]);
    const forgedHeader = await recordExchange(sandbox.externalUrl, '/builds/v1/tool/mytool/builds', {
      headers: { 'x-toolforge-tool': 'mytool' },
    });
    expect(forgedHeader.status).toBe(401);
  });

  it('serves health and metrics without auth', async () => {
    for (const path of [
      '/builds/v1/healthz',
      '/builds/v1/metrics',
      '/components/v1/healthz',
      '/components/metrics',
    ]) {
      expect((await recordExchange(sandbox.externalUrl, path)).status).toBe(200);
    }
  });
});

describe('direct mode (app.request, behind the gateway)', () => {
  it('trusts x-toolforge-tool like the backends, and refuses unknown or other tools', async () => {
    const ctx = createSandboxContext({ stepMs: 10 });
    const app = createToolhostApp(ctx);
    seedToolhost(ctx);
    try {
      const ok = await app.request('/builds/v1/tool/mytool/builds', {
        headers: { 'x-toolforge-tool': 'mytool' },
      });
      expect(ok.status).toBe(200);
      const other = await app.request('/builds/v1/tool/mytool/builds', {
        headers: { 'x-toolforge-tool': 'demo' },
      });
      expect(other.status).toBe(403);
      const unknown = await app.request('/components/v1/tool/ghost/config', {
        headers: { 'x-toolforge-tool': 'ghost' },
      });
      expect(unknown.status).toBe(401);
      expect(((await unknown.json()) as Body).messages.error[0]).toMatch(/ghost/);
      const missing = await app.request('/components/v1/tool/mytool/config');
      expect(missing.status).toBe(401);
    } finally {
      ctx.timers?.close();
    }
  });

  it('accepts `:tool_name` routes and answers in the jobs/envvars/logs shapes', async () => {
    const app = new Hono();
    for (const prefix of ['/jobs/v1', '/envvars/v1', '/logs/v1']) {
      app.use(`${prefix}/tool/:tool_name/*`, toolAuth());
      app.get(`${prefix}/tool/:tool_name/thing`, (c) => c.json({ tool: c.get('tool' as never) }));
    }
    const ok = await app.request('/jobs/v1/tool/mytool/thing', { headers: { 'x-toolforge-tool': 'mytool' } });
    expect(await ok.json()).toEqual({ tool: 'mytool' });
    const jobs = await app.request('/jobs/v1/tool/mytool/thing');
    expect(jobs.status).toBe(403);
    expect(((await jobs.json()) as Body).error).toHaveLength(1);
    const envvars = await app.request('/envvars/v1/tool/mytool/thing', {
      headers: { 'x-toolforge-tool': 'demo' },
    });
    expect(envvars.status).toBe(403);
    expect(((await envvars.json()) as Body).error).toHaveLength(1);
    const logs = await app.request('/logs/v1/tool/mytool/thing');
    expect(logs.status).toBe(401);
    expect(((await logs.json()) as Body).messages.error).toHaveLength(1);
  });
});
