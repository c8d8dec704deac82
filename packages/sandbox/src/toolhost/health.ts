/**
 * Outages of the emulated platform, for tests and demos (`controls.setUnhealthy('jobs', 'etcd down')`).
 *
 * While an API is unhealthy:
 * - its health endpoint reports `ERROR` in its own shape, with 503 as the specs declare for an
 *   unhealthy service (builds answers 500: B `internal/api.go` sends 500 although its spec says 503);
 *   jobs `{health:{status,message}, messages}` (J `tjf/api/models.py HealthResponse`), builds and
 *   envvars `{status, messages}`, components and logs the `{data:{status}, messages}` envelope;
 * - every tool operation of that API fails with 503 and the API's error body carrying the message,
 *   which is what a backend that cannot reach its cluster answers through the gateway.
 */
import type { MiddlewareHandler } from 'hono';
import type { SandboxContext } from './context';
import { areaOfPath, errorBody, type ToolhostArea } from './errors';

/** An API of the platform that can be made unhealthy. */
export type SandboxApi = ToolhostArea;

const outages = new WeakMap<SandboxContext, Map<SandboxApi, string>>();

/** Marks `api` unhealthy with `message`, or healthy again with undefined. */
export function setUnhealthy(ctx: SandboxContext, api: SandboxApi, message: string | undefined): void {
  const map = outages.get(ctx) ?? new Map<SandboxApi, string>();
  outages.set(ctx, map);
  if (message === undefined) map.delete(api);
  else map.set(api, message);
}

function unhealthyBody(api: SandboxApi, message: string): unknown {
  switch (api) {
    case 'jobs':
      return { health: { status: 'ERROR', message }, messages: { info: [], warning: [], error: [] } };
    case 'builds':
    case 'envvars':
      return { status: 'ERROR', messages: { info: [], warning: [], error: [message] } };
    default:
      return { data: { status: 'ERROR' }, messages: { info: [], warning: [], error: [message] } };
  }
}

/** Gateway middleware: answers for an unhealthy API as described above; passes everything else on. */
export function outageGate(ctx: SandboxContext): MiddlewareHandler {
  return async (c, next) => {
    const api = areaOfPath(c.req.path);
    const message = api ? outages.get(ctx)?.get(api) : undefined;
    if (!api || message === undefined) return next();
    if (/\/healthz\/?$/.test(c.req.path)) {
      return c.json(unhealthyBody(api, message) as object, api === 'builds' ? 500 : 503);
    }
    if (/\/metrics\/?$/.test(c.req.path)) return next();
    return c.json(errorBody(api, 503, message) as object, 503);
  };
}
