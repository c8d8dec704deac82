/**
 * Tests of the envvars API emulator over real HTTPS with the tool's client certificate (mTLS). There
 * is no OpenAPI document of the envvars API; responses are checked against zod schemas of the shapes
 * in specs/toolforge/envvars-schemas.md.
 */

import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { ENVVARS_QUOTA } from '@deckhand/sandbox/toolhost/envvars';
import { SEEDED_ENVVARS, seedJobsLogsEnvvars } from '@deckhand/sandbox/toolhost/seed-jobs';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useToolhostEmulator } from '../support/toolhost-emulator';

const Messages = z.strictObject({
  error: z.array(z.string()).optional(),
  info: z.array(z.string()).optional(),
  warning: z.array(z.string()).optional(),
});
const Envvar = z.strictObject({ name: z.string().regex(/^[A-Z][A-Z_0-9]{2,}[A-Z0-9]$/), value: z.string() });
const GetResponse = z.strictObject({ envvar: Envvar, messages: Messages });
const ListResponse = z.strictObject({ envvars: z.array(Envvar), messages: Messages });
const QuotaResponse = z.strictObject({
  quota: z.strictObject({ quota: z.int(), used: z.int() }),
  messages: Messages,
});
const HealthResponse = z.strictObject({ status: z.enum(['OK', 'ERROR']), messages: Messages });
/** Errors: a bare ResponseMessages with one error. */
const ErrorResponse = z.strictObject({ error: z.array(z.string()).length(1) });

let sandbox: ToolhostSandbox;
const T = 'envtest';

async function call(path: string, options: { tool?: string; method?: string; body?: unknown } = {}) {
  const response = await request(`${sandbox.internalUrl}/envvars/v1${path}`, {
    method: (options.method ?? (options.body === undefined ? 'GET' : 'POST')) as 'GET',
    dispatcher: agentFor(options.tool ?? T),
    ...(options.body !== undefined
      ? {
          body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
          headers: { 'content-type': 'application/json' },
        }
      : {}),
  });
  return { status: response.statusCode, json: (await response.body.json()) as unknown };
}

const vars = `/tool/${T}/envvars`;
const expectError = (answer: { status: number; json: unknown }, status: number, message: RegExp) => {
  expect(answer.status).toBe(status);
  expect(ErrorResponse.parse(answer.json).error[0]).toMatch(message);
};

describe('envvars API emulator', () => {
  it('serves health and metrics without a certificate', async () => {
    const health = await request(`${sandbox.externalUrl}/envvars/v1/healthz`);
    expect(HealthResponse.parse(await health.body.json()).status).toBe('OK');
    const metrics = await request(`${sandbox.externalUrl}/envvars/v1/metrics`);
    expect(await metrics.body.text()).toContain('# TYPE http_requests_total counter');
  });

  it('lists the seeded envvars, with the deploy token the components area stored', async () => {
    const list = ListResponse.parse((await call('/tool/mytool/envvars', { tool: 'mytool' })).json);
    const names = list.envvars.map((v) => v.name);
    expect(names).toEqual([...Object.keys(SEEDED_ENVVARS.mytool ?? {}), 'TOOL_DEPLOY_TOKEN'].sort());
    expect(list.envvars.find((v) => v.name === 'TOOL_DEPLOY_TOKEN')?.value).toBe(
      sandbox.deployTokenFor('mytool'),
    );
    const demo = ListResponse.parse((await call('/tool/demo/envvars', { tool: 'demo' })).json);
    expect(demo.envvars.map((v) => v.name)).toEqual(['API_ENDPOINT', 'DB_PASSWORD', 'SENTRY_DSN']);
  });

  it('creates, overwrites, shows and deletes an envvar', async () => {
    const created = GetResponse.parse((await call(vars, { body: { name: 'API_KEY', value: 'one' } })).json);
    expect(created.envvar).toEqual({ name: 'API_KEY', value: 'one' });
    await call(vars, { body: { name: 'API_KEY', value: 'two' } });
    const shown = await call(`${vars}/API_KEY`);
    expect(GetResponse.parse(shown.json).envvar.value).toBe('two');
    const deleted = await call(`${vars}/API_KEY`, { method: 'DELETE' });
    expect(GetResponse.parse(deleted.json).envvar).toEqual({ name: 'API_KEY', value: 'two' });
    expectError(await call(`${vars}/API_KEY`), 404, /API_KEY/);
    expectError(await call(`${vars}/API_KEY`, { method: 'DELETE' }), 404, /API_KEY/);
  });

  it('refuses bad names and bodies', async () => {
    for (const name of ['api_key', 'ABC', '1ABC', 'ABC_', 'AB-CD', '']) {
      expectError(await call(vars, { body: { name, value: 'x' } }), 400, /Invalid envvar name/);
    }
    expectError(await call(`${vars}/lower`), 400, /Invalid envvar name/);
    expectError(await call(vars, { body: { name: 'GOOD_NAME' } }), 400, /'value'/);
    expectError(await call(vars, { body: { name: 'GOOD_NAME', value: 3 } }), 400, /'value'/);
    expectError(await call(vars, { body: '{oops' }), 400, /Invalid request body/);
  });

  it('reports the quota and refuses to go over it with 403', async () => {
    const path = '/tool/full/envvars';
    for (let i = 0; i < ENVVARS_QUOTA; i += 1) {
      const answer = await call(path, { tool: 'full', body: { name: `VAR_${i}`, value: String(i) } });
      expect(answer.status).toBe(200);
    }
    const quota = QuotaResponse.parse((await call('/tool/full/quotas', { tool: 'full' })).json).quota;
    expect(quota).toEqual({ quota: ENVVARS_QUOTA, used: ENVVARS_QUOTA });
    expectError(await call(path, { tool: 'full', body: { name: 'ONE_MORE', value: 'x' } }), 403, /[Qq]uota/);
    // Overwriting an existing one is fine at the limit.
    expect((await call(path, { tool: 'full', body: { name: 'VAR_0', value: 'new' } })).status).toBe(200);
  });

  it('lets other areas set and delete envvars through ctx.envvars', async () => {
    sandbox.ctx.envvars?.setEnvvar(T, 'TOOL_DEPLOY_TOKEN', 'abc');
    expect(GetResponse.parse((await call(`${vars}/TOOL_DEPLOY_TOKEN`)).json).envvar.value).toBe('abc');
    sandbox.ctx.envvars?.deleteEnvvar?.(T, 'TOOL_DEPLOY_TOKEN');
    expect((await call(`${vars}/TOOL_DEPLOY_TOKEN`)).status).toBe(404);
  });

  it("refuses another tool's envvars", async () => {
    expectError(await call('/tool/mytool/envvars'), 403, /'mytool'/);
  });
});
const { agentFor } = useToolhostEmulator({ stepMs: 10, tools: [T, 'full'] }, (started) => {
  sandbox = started;
  seedJobsLogsEnvvars(started.ctx);
});
