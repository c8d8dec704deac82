/**
 * The envvars API emulator (`/envvars/v1`, specs/toolforge/envvars-schemas.md).
 *
 * - `GET|POST /tool/{toolname}/envvars`, `GET|DELETE /tool/{toolname}/envvars/{name}`,
 *   `GET /tool/{toolname}/quotas`, and unauthenticated `/healthz`, `/metrics`.
 * - Bodies: `Envvar {name, value}`; `GetResponse {envvar, messages}`, `ListResponse {envvars,
 *   messages}`, `QuotaResponse {quota: {quota, used}, messages}`, `HealthResponse {status, messages}`.
 * - Errors are a bare `ResponseMessages` `{"error": [...]}`, the shape the CLIs parse.
 *   Not verifiable from source (no public code): the emulator answers 400 for a body that is not an
 *   `Envvar` or a name that breaks `^[A-Z][A-Z_0-9]{2,}[A-Z0-9]$` (the seed lists no status for it;
 *   builds-api, the sibling Go service, answers 400), 403 when creating one more envvar than the
 *   quota allows (overwriting an existing one is always fine), 404 for an unknown name.
 * - `ctx.envvars` lets the components area store `TOOL_DEPLOY_TOKEN` (outside the quota check).
 */
import { Hono } from 'hono';
import { type ToolhostEnv, toolAuth } from './auth';
import type { EnvvarsFacade, SandboxContext } from './context';
import { RequestMetrics } from './jobs-metrics';

/** `EnvvarName`: uppercase letters, digits and `_`, starting with a letter, at least 4 chars. */
export const ENVVAR_NAME = /^[A-Z][A-Z_0-9]{2,}[A-Z0-9]$/;

/** Envvars a tool may create. */
export const ENVVARS_QUOTA = 100;

/** An envvar. */
export interface Envvar {
  name: string;
  value: string;
}

const stores = new WeakMap<SandboxContext, Map<string, Map<string, string>>>();

/** The envvars of a tool, created on first use (shared by the routes, the facade and the seed). */
export function envvarsOf(ctx: SandboxContext, tool: string): Map<string, string> {
  let byTool = stores.get(ctx);
  if (!byTool) {
    byTool = new Map();
    stores.set(ctx, byTool);
  }
  let vars = byTool.get(tool);
  if (!vars) {
    vars = new Map();
    byTool.set(tool, vars);
  }
  return vars;
}

const messages = () => ({ error: [] as string[], info: [] as string[], warning: [] as string[] });
const error = (message: string) => ({ error: [message] });
const nameProblem = (name: string) =>
  `Invalid envvar name '${name}': it must match ${ENVVAR_NAME.source} (uppercase letters, digits and '_', at least 4 characters, starting with a letter)`;

/** The facade other areas use (components stores and deletes `TOOL_DEPLOY_TOKEN`). */
function envvarsFacade(ctx: SandboxContext): EnvvarsFacade {
  return {
    setEnvvar: (tool, name, value) => {
      envvarsOf(ctx, tool).set(name, value);
    },
    deleteEnvvar: (tool, name) => {
      envvarsOf(ctx, tool).delete(name);
    },
  };
}

/** Parses a create body; the envvar, or the 400 message. */
function parseEnvvar(text: string): Envvar | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'Invalid request body: expected a JSON object {"name": ..., "value": ...}';
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return 'Invalid request body: expected a JSON object {"name": ..., "value": ...}';
  }
  const { name, value } = body as Record<string, unknown>;
  if (typeof name !== 'string')
    return "Invalid request body: property 'name' is required and must be a string";
  if (typeof value !== 'string')
    return "Invalid request body: property 'value' is required and must be a string";
  if (!ENVVAR_NAME.test(name)) return nameProblem(name);
  return { name, value };
}

/** Creates the envvars API (mount it at `/envvars/v1`) and registers `ctx.envvars`. */
export function createEnvvarsArea(ctx: SandboxContext): Hono<ToolhostEnv> {
  ctx.envvars = envvarsFacade(ctx);
  const metrics = new RequestMetrics();
  const app = new Hono<ToolhostEnv>();
  app.use('*', metrics.middleware());

  app.get('/healthz', (c) => c.json({ status: 'OK', messages: messages() }));
  app.get('/metrics', (c) => c.text(metrics.render(), 200, { 'content-type': 'text/plain; version=0.0.4' }));

  app.use('/tool/:toolname/*', toolAuth({ area: 'envvars' }));

  app.get('/tool/:toolname/envvars', (c) => {
    const vars = envvarsOf(ctx, c.get('tool'));
    const envvars = [...vars].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, value]) => ({ name, value }));
    return c.json({ envvars, messages: messages() });
  });

  app.post('/tool/:toolname/envvars', async (c) => {
    const parsed = parseEnvvar(await c.req.text());
    if (typeof parsed === 'string') return c.json(error(parsed), 400);
    const vars = envvarsOf(ctx, c.get('tool'));
    if (!vars.has(parsed.name) && vars.size >= ENVVARS_QUOTA) {
      return c.json(
        error(`Quota exceeded: the tool already has ${vars.size} envvars out of ${ENVVARS_QUOTA} allowed`),
        403,
      );
    }
    vars.set(parsed.name, parsed.value);
    return c.json({ envvar: parsed, messages: messages() });
  });

  app.get('/tool/:toolname/envvars/:name', (c) => {
    const name = c.req.param('name');
    if (!ENVVAR_NAME.test(name)) return c.json(error(nameProblem(name)), 400);
    const value = envvarsOf(ctx, c.get('tool')).get(name);
    if (value === undefined) return c.json(error(`Envvar '${name}' does not exist`), 404);
    return c.json({ envvar: { name, value }, messages: messages() });
  });

  app.delete('/tool/:toolname/envvars/:name', (c) => {
    const name = c.req.param('name');
    if (!ENVVAR_NAME.test(name)) return c.json(error(nameProblem(name)), 400);
    const vars = envvarsOf(ctx, c.get('tool'));
    const value = vars.get(name);
    if (value === undefined) return c.json(error(`Envvar '${name}' does not exist`), 404);
    vars.delete(name);
    return c.json({ envvar: { name, value }, messages: messages() });
  });

  app.get('/tool/:toolname/quotas', (c) =>
    c.json({
      quota: { quota: ENVVARS_QUOTA, used: envvarsOf(ctx, c.get('tool')).size },
      messages: messages(),
    }),
  );

  return app;
}
