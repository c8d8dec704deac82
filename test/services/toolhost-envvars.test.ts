/** The envvars client against the toolhost sandbox over real HTTPS. */

import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/core/errors';
import type { ToolhostClient, ToolhostClientFactory } from '../../src/services/toolhost';
import { useToolhostSandboxClient } from '../support/toolhost-sandbox-client';

let factory: ToolhostClientFactory;
let demo: ToolhostClient;

useToolhostSandboxClient({ tool: 'demo', timeoutMs: 5_000 }, (started) => {
  ({ factory, client: demo } = started);
});

describe('envvars', () => {
  it('creates, overwrites, shows, lists and deletes an envvar', async () => {
    await expect(demo.envvars.set('API_KEY', 'one')).resolves.toEqual({ name: 'API_KEY', value: 'one' });
    await expect(demo.envvars.set('API_KEY', 'two')).resolves.toEqual({ name: 'API_KEY', value: 'two' });
    await expect(demo.envvars.show('API_KEY')).resolves.toEqual({ name: 'API_KEY', value: 'two' });
    expect(await demo.envvars.list()).toContainEqual({ name: 'API_KEY', value: 'two' });
    await expect(demo.envvars.delete('API_KEY')).resolves.toEqual({ name: 'API_KEY', value: 'two' });
    expect((await demo.envvars.list()).map((e) => e.name)).not.toContain('API_KEY');
  });

  it('names the envvar in a 404, and keeps the 400 of a bad name', async () => {
    await expect(demo.envvars.show('NOPE_NOPE')).rejects.toThrow(
      new NotFoundError('Environment variable NOPE_NOPE not found for tool demo.'),
    );
    await expect(demo.envvars.delete('NOPE_NOPE')).rejects.toBeInstanceOf(NotFoundError);
    await expect(demo.envvars.set('lower', 'x')).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("Invalid envvar name 'lower'"),
    });
  });

  it('reads the quota (with what is left) and answers 403 beyond it', async () => {
    const before = await demo.envvars.quotas();
    expect(before.quota).toBeGreaterThan(0);
    expect(before.available).toBe((before.quota ?? 0) - (before.used ?? 0));
    for (let i = before.used ?? 0; i < (before.quota ?? 0); i += 1) await demo.envvars.set(`VAR_${i}_X`, 'v');
    await expect(demo.envvars.set('ONE_TOO_MANY', 'v')).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining('Quota exceeded'),
    });
    expect((await demo.envvars.quotas()).available).toBe(0);
  });

  it('sees TOOL_DEPLOY_TOKEN once a deploy token is created', async () => {
    const mytool = factory.forTool('mytool');
    const token = await mytool.components.refreshDeployToken();
    await expect(mytool.envvars.show('TOOL_DEPLOY_TOKEN')).resolves.toEqual({
      name: 'TOOL_DEPLOY_TOKEN',
      value: token.token,
    });
  });

  it('answers health and metrics without authentication', async () => {
    await expect(demo.envvars.healthz()).resolves.toEqual({ status: 'OK' });
    await expect(demo.envvars.metrics()).resolves.toEqual(expect.any(String));
  });
});
