/**
 * The components API area (components-openapi.yaml 0.6.0), mounted at `/components` (routes
 * `/v1/…` and `/metrics`). Every answer is the envelope `{data, messages}` (warning defaults to the
 * beta notice); errors are the envelope without `data` (HTTPException and 422 alike).
 */

import type { Context } from 'hono';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type ToolhostEnv, toolAuth } from './auth';
import { buildsStoreOf } from './builds-store';
import { boolQuery, deploymentDescription, jsonBody, type Parsed, requiredQuery } from './components-http';
import { componentsStoreOf, type DeploymentRecord } from './components-store';
import type { SandboxContext } from './context';
import { DeploymentRunner } from './deployment-runner';
import { BETA_WARNING, envelope, sendError } from './errors';
import { type ToolConfig, validateToolConfig } from './tool-config';

/** What `config/generate` returns when nothing can be generated from the tool's jobs. */
export const EXAMPLE_TOOL_CONFIG: ToolConfig = {
  config_version: 'v1beta1',
  components: {
    'my-component': {
      component_type: 'continuous',
      build: {
        repository: 'https://gitlab.wikimedia.org/toolforge-repos/sample-python-buildpack-app',
        ref: 'main',
      },
      run: { command: 'web', port: 8000 },
    },
  },
};

/** Only one pending/running deployment per tool (`max_parallel_deployments`). */
export const MAX_PARALLEL_DEPLOYMENTS = 1;

/** Creates the components area. */
export function createComponentsArea(ctx: SandboxContext): Hono<ToolhostEnv> {
  const store = componentsStoreOf(ctx);
  const runner = new DeploymentRunner(ctx);
  const app = new Hono<ToolhostEnv>();
  const fail = (c: Context, status: ContentfulStatusCode, messages: string | string[]) =>
    sendError(c, 'components', status, messages);
  const notFound = (c: Context, tool: string, id: string) =>
    fail(c, 404, `No deployment with id ${id} found for tool: ${tool}`);
  /** Checks `rebuild_storage` (and `extra` booleans); answers 422 or returns their values. */
  const query = (c: Context, extra: string[] = []): Parsed<Record<string, boolean>> =>
    boolQuery(c, ['rebuild_storage', ...extra]);

  app.get('/metrics', (c) => {
    let deployments = 0;
    for (const tool of ctx.tools) deployments += store.list(tool).length;
    return c.text(
      `# HELP components_api_deployments Deployments known to the sandbox.\n# TYPE components_api_deployments gauge\ncomponents_api_deployments ${deployments}\n`,
      200,
      { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' },
    );
  });
  app.get('/v1/healthz', (c) => c.json(envelope({ status: 'OK' })));

  // The deploy token is accepted on deployment create and show only (C `tool_router.py`).
  const acceptsToken = (c: Context) =>
    (c.req.method === 'POST' && /\/deployment\/?$/.test(c.req.path)) ||
    (c.req.method === 'GET' && /\/deployment\/(?!token$|latest$)[^/]+$/.test(c.req.path));
  app.use(
    '/v1/tool/:toolname/*',
    toolAuth({
      area: 'components',
      acceptsToken,
      verifyToken: (tool, token) => store.verifyToken(tool, token),
    }),
  );

  // ---- config
  app.get('/v1/tool/:toolname/config', (c) => {
    const q = query(c);
    if (!q.ok) return fail(c, 422, q.errors);
    const config = store.config(c.get('tool'));
    if (!config) return fail(c, 404, `No configuration found for tool: ${c.get('tool')}`);
    return c.json(envelope(config));
  });
  // Save (create or replace): C components/api/tool_router.py `update_tool_config` — the body is a
  // ToolConfig (422 per field otherwise), stored as parsed; unknown fields are dropped and each named
  // in a warning "Unknown field a.b, skipped" (`_get_unknown_config_fields`); info "Configuration for
  // <tool> updated successfully.".
  app.post('/v1/tool/:toolname/config', async (c) => {
    const q = query(c);
    if (!q.ok) return fail(c, 422, q.errors);
    const body = await jsonBody(c);
    if (!body.ok) return fail(c, 422, body.errors);
    if (body.value === null) return fail(c, 422, 'Validation error at : Field required');
    const result = validateToolConfig(body.value);
    if (!result.ok) return fail(c, 422, result.errors);
    const tool = c.get('tool');
    store.setConfig(tool, result.config);
    return c.json(
      envelope(result.config, {
        info: [`Configuration for ${tool} updated successfully.`],
        warning: [BETA_WARNING, ...result.unknownFields.map((field) => `Unknown field ${field}, skipped`)],
      }),
    );
  });
  app.delete('/v1/tool/:toolname/config', (c) => {
    const q = query(c);
    if (!q.ok) return fail(c, 422, q.errors);
    const config = store.deleteConfig(c.get('tool'));
    if (!config) return fail(c, 404, `No configuration found for tool: ${c.get('tool')}`);
    return c.json(envelope(config));
  });
  app.get('/v1/tool/:toolname/config/generate', (c) => {
    const { config, notes } = generateConfig(ctx, c.get('tool'));
    return c.json(
      envelope(config ?? EXAMPLE_TOOL_CONFIG, {
        warning: [
          'Note that this config is an autogenerated example, please double check and validate before using it',
          ...notes,
          ...(config
            ? []
            : [
                'No components were able to be generated from your tool, a sample set of them is returned instead',
              ]),
        ],
      }),
    );
  });

  // ---- deploy token
  app.get('/v1/tool/:toolname/deployment/token', (c) => {
    const q = query(c);
    if (!q.ok) return fail(c, 422, q.errors);
    const token = store.token(c.get('tool'));
    if (!token) return fail(c, 404, `No deploy token found for tool: ${c.get('tool')}`);
    return c.json(envelope(token));
  });
  app.post('/v1/tool/:toolname/deployment/token', (c) => {
    const q = query(c);
    if (!q.ok) return fail(c, 422, q.errors);
    const tool = c.get('tool');
    if (store.token(tool)) {
      return fail(
        c,
        409,
        `Deploy token already exists. Use the 'refresh' subcommand or PUT /tool/${tool}/deployment/token to refresh it.`,
      );
    }
    const token = store.issueToken(tool);
    return c.json(envelope(token, { info: [`Deploy token for ${tool} created successfully.`] }));
  });
  app.put('/v1/tool/:toolname/deployment/token', (c) => {
    const q = query(c);
    if (!q.ok) return fail(c, 422, q.errors);
    const tool = c.get('tool');
    if (!store.token(tool)) return fail(c, 404, `No deploy token found for tool: ${tool}`);
    const token = store.issueToken(tool);
    return c.json(envelope(token, { info: [`Deploy token for ${tool} updated successfully.`] }));
  });
  app.delete('/v1/tool/:toolname/deployment/token', (c) => {
    const q = query(c);
    if (!q.ok) return fail(c, 422, q.errors);
    const tool = c.get('tool');
    const token = store.deleteToken(tool);
    if (!token) return fail(c, 404, `No deploy token found for tool: ${tool}`);
    return c.json(envelope(token, { info: [`Deploy token for ${tool} deleted successfully.`] }));
  });

  // ---- deployments (static segments before `:deployment_id`: Hono matches in registration order)
  app.get('/v1/tool/:toolname/deployment', (c) => {
    const q = query(c);
    if (!q.ok) return fail(c, 422, q.errors);
    // Empty list rather than 404 since components-api dac7467.
    return c.json(envelope({ deployments: store.list(c.get('tool')).map((record) => record.data) }));
  });
  app.post('/v1/tool/:toolname/deployment', async (c) => {
    const q = query(c, ['force-build', 'force-run']);
    if (!q.ok) return fail(c, 422, q.errors);
    const body = await jsonBody(c);
    if (!body.ok) return fail(c, 422, body.errors);
    const description = deploymentDescription(body.value);
    if (!description.ok) return fail(c, 422, description.errors);
    const tool = c.get('tool');
    const config = store.config(tool);
    if (!config) return fail(c, 404, `No configuration found for tool: ${tool}`);
    const active = store.active(tool).length;
    if (active >= MAX_PARALLEL_DEPLOYMENTS) {
      return fail(
        c,
        409,
        `There's already ${active} running, the limit is ${MAX_PARALLEL_DEPLOYMENTS}. Wait for it to finish for now.`,
      );
    }
    const record = store.create(tool, config, {
      description: description.value,
      forceBuild: q.value['force-build'] ?? false,
      forceRun: q.value['force-run'] ?? false,
    });
    runner.start(record);
    return c.json(envelope(record.data, { info: [`Deployment for ${tool} created successfully.`] }));
  });
  app.get('/v1/tool/:toolname/deployment/latest', (c) => {
    const q = query(c);
    if (!q.ok) return fail(c, 422, q.errors);
    const latest = store.latest(c.get('tool'));
    if (!latest) return fail(c, 404, `No deployments found for tool: ${c.get('tool')}`);
    return c.json(envelope(latest.data));
  });

  /** Cancels by id (`latest` meaning the newest, as the real handler does). */
  const cancel = (c: Context<ToolhostEnv>, id: string) => {
    const tool = c.get('tool');
    const record = id === 'latest' ? store.latest(tool) : store.get(tool, id);
    if (!record) return notFound(c, tool, id);
    if (record.data.status !== 'pending' && record.data.status !== 'running') {
      return fail(
        c,
        409,
        `Deployment ${record.data.deploy_id} can't be cancelled, it is not pending or running (status: ${record.data.status})`,
      );
    }
    runner.requestCancel(record);
    return c.json(
      envelope(record.data, {
        info: ['Deployment flagged for cancellation, might take a moment to cancel.'],
      }),
    );
  };
  app.put('/v1/tool/:toolname/deployment/latest/cancel', (c) => {
    // FastAPI turned the handler's `deployment_id` into a required query parameter on this path.
    const q = query(c);
    const id = requiredQuery(c, 'deployment_id');
    const errors = [...(q.ok ? [] : q.errors), ...(id.ok ? [] : id.errors)];
    if (errors.length || !id.ok) return fail(c, 422, errors);
    return cancel(c, id.value);
  });
  app.put('/v1/tool/:toolname/deployment/:deployment_id/cancel', (c) => {
    const q = query(c);
    if (!q.ok) return fail(c, 422, q.errors);
    return cancel(c, c.req.param('deployment_id'));
  });
  app.get('/v1/tool/:toolname/deployment/:deployment_id', (c) => {
    const q = query(c);
    if (!q.ok) return fail(c, 422, q.errors);
    const tool = c.get('tool');
    const record = store.get(tool, c.req.param('deployment_id'));
    if (!record) return notFound(c, tool, c.req.param('deployment_id'));
    return c.json(envelope(record.data));
  });
  app.delete('/v1/tool/:toolname/deployment/:deployment_id', (c) => {
    const q = query(c);
    if (!q.ok) return fail(c, 422, q.errors);
    const tool = c.get('tool');
    const id = c.req.param('deployment_id');
    const record: DeploymentRecord | undefined = store.delete(tool, id);
    if (!record) return notFound(c, tool, id);
    runner.forget(record);
    return c.json(envelope(record.data, { info: [`Deployment ${id} deleted successfully.`] }));
  });

  return app;
}

/**
 * `config/generate` (C `tool_handlers.generate_tool_config`): one continuous component per
 * continuous job that runs a build-service image with a known build; other jobs are skipped with a note.
 */
function generateConfig(ctx: SandboxContext, tool: string): { config?: ToolConfig; notes: string[] } {
  const jobs = ctx.jobs?.listJobs?.(tool) ?? [];
  const builds = buildsStoreOf(ctx).list(tool);
  const notes: string[] = [];
  const components: ToolConfig['components'] = {};
  for (const job of jobs) {
    if (job.job_type !== 'continuous') {
      notes.push(`Job ${job.name} is not a continuous job, not supported yet, skipping`);
      continue;
    }
    const build = builds.find((candidate) =>
      candidate.destinationImage.replace(/@sha256:[0-9a-f]+$/, '').endsWith(job.imagename),
    );
    if (!job.imagename.includes('/') || !build) {
      notes.push(
        `Job ${job.name} seems not to be a build-service based job (or no build found for it), skipping`,
      );
      continue;
    }
    components[job.name] = {
      component_type: 'continuous',
      build: { repository: build.params.source_url, ref: build.params.ref || 'HEAD' },
      run: { command: job.cmd.split('launcher ').at(-1) ?? job.cmd, ...(job.port ? { port: job.port } : {}) },
    };
  }
  return Object.keys(components).length
    ? { config: { config_version: 'v1beta1', components }, notes }
    : { notes };
}
