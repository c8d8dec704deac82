/**
 * The builds API area (builds-openapi.yaml 2.4.0), mounted at `/builds/v1`. Bodies follow the Go
 * service: `{…, messages}` on success, `{"error":[msg]}` on errors, a bare JSON string for an
 * unparsable body, and `{"message":…}` for the framework's own 400/401/404.
 */

import type { Context } from 'hono';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type ToolhostEnv, toolAuth } from './auth';
import { streamBuildLogs } from './builds-logs';
import { parseBuildParameters } from './builds-params';
import {
  type BuildRecord,
  buildsStoreOf,
  isFinished,
  MAX_PARALLEL_BUILDS,
  REGISTRY_LIMIT_BYTES,
} from './builds-store';
import type { SandboxContext } from './context';

/** Registry use (share of the quota) from which `start` warns. */
export const QUOTA_WARNING_RATIO = 0.8;

/** Prints bytes as builds-api's `formatBytes` does (`%.2f` + binary unit). */
export function formatBytes(bytes: number): string {
  const units: Array<[string, number]> = [
    ['Ti', 1024 ** 4],
    ['Gi', 1024 ** 3],
    ['Mi', 1024 ** 2],
    ['Ki', 1024],
  ];
  for (const [unit, size] of units) if (bytes >= size) return `${(bytes / size).toFixed(2)}${unit}`;
  return `${bytes}B`;
}

/** The `Build` schema of a record. */
export function buildJson(build: BuildRecord) {
  return {
    build_id: build.id,
    status: build.status,
    message: build.message,
    start_time: build.startTime,
    end_time: build.endTime,
    parameters: { ...build.params, envvars: { ...build.params.envvars } },
    destination_image: build.destinationImage,
    resolved_ref: build.resolvedRef,
  };
}

/** Creates the builds area and registers `ctx.builds`. */
export function createBuildsArea(ctx: SandboxContext): Hono<ToolhostEnv> {
  const store = buildsStoreOf(ctx);
  ctx.builds = store.facade();
  const app = new Hono<ToolhostEnv>();

  /** `ResponseMessages` as Go marshals it: empty lists omitted; plus any deprecation warning. */
  const messages = (operation: string, extra: { info?: string[]; warning?: string[] } = {}) => {
    const warning = [...(extra.warning ?? [])];
    const deprecation = ctx.deprecations?.get(`builds.${operation}`);
    if (deprecation) warning.push(deprecation);
    return {
      ...(extra.info?.length ? { info: extra.info } : {}),
      ...(warning.length ? { warning } : {}),
    };
  };
  const fail = (c: Context, status: ContentfulStatusCode, message: string) =>
    c.json({ error: [message] }, status);

  /** Finds a build of the authenticated tool, or answers 401 (other tool's prefix) / 404. */
  const findBuild = (c: Context<ToolhostEnv>, notFound: (id: string) => string) => {
    const tool = c.get('tool');
    const id = c.req.param('id') ?? '';
    // B `ToolIsAllowedForBuild`: ids must start with `<tool>-buildpacks-pipelinerun-`.
    if (!id.startsWith(`${tool}-buildpacks-pipelinerun-`)) {
      return {
        response: fail(
          c,
          401,
          `Build '${id}' does not exist or belong to tool '${tool}'. Double check the name and try again.`,
        ),
      };
    }
    const build = store.get(id);
    if (!build || build.tool !== tool) return { response: fail(c, 404, notFound(id)) };
    return { build };
  };

  app.get('/healthz', (c) => c.json({ status: 'OK', messages: { info: ['All systems normal'] } }));
  app.get('/metrics', (c) => c.text(metricsText(ctx), 200, { 'content-type': 'text/plain; version=0.0.4' }));

  app.use('/tool/:toolname/*', toolAuth({ area: 'builds' }));

  app.get('/tool/:toolname/builds', (c) =>
    c.json({ builds: store.list(c.get('tool')).map(buildJson), messages: messages('list') }),
  );

  app.post('/tool/:toolname/builds', async (c) => {
    const tool = c.get('tool');
    const parsed = parseBuildParameters(await c.req.text(), tool);
    if (parsed.kind === 'bad-json') return c.json(parsed.message, 400);
    if (parsed.kind === 'invalid') return fail(c, 400, parsed.message);
    const running = store.unfinished(tool);
    if (running >= MAX_PARALLEL_BUILDS) {
      return fail(
        c,
        409,
        `Too many builds running in parallel (${running}), the limit is ${MAX_PARALLEL_BUILDS}. ` +
          'Wait for some to finish or cancel them before starting a new one.',
      );
    }
    const warning: string[] = [];
    const params = parsed.params;
    if (params.use_deprecated_versions && !params.use_latest_versions) {
      warning.push(
        'You are using deprecated versions of the builder and runner images; they will be removed soon. ' +
          'Build without use_deprecated_versions (or with use_latest_versions) to migrate.',
      );
    }
    const build = store.start(tool, params);
    const used = store.storageUsed(tool);
    if (used >= REGISTRY_LIMIT_BYTES * QUOTA_WARNING_RATIO) {
      warning.push(
        `Your tool uses ${Math.round((used / REGISTRY_LIMIT_BYTES) * 100)}% of its registry storage quota ` +
          `(${formatBytes(used)} of ${formatBytes(REGISTRY_LIMIT_BYTES)}); builds fail once it is full. ` +
          'Run `toolforge build clean` to delete old images.',
      );
    }
    return c.json({
      new_build: {
        name: build.id,
        resolved_ref: build.resolvedRef,
        parameters: { ...params, envvars: { ...params.envvars } },
      },
      messages: messages('start', { warning }),
    });
  });

  app.get('/tool/:toolname/builds/latest', (c) => {
    const latest = store.list(c.get('tool'))[0];
    if (!latest) return fail(c, 404, 'No builds exist yet.');
    return c.json({ build: buildJson(latest), messages: messages('latest') });
  });

  app.get('/tool/:toolname/builds/:id', (c) => {
    const { build, response } = findBuild(c, (id) => `Build with id ${id} not found.`);
    if (!build) return response;
    return c.json({ build: buildJson(build), messages: messages('get') });
  });

  app.delete('/tool/:toolname/builds/:id', (c) => {
    const { build, response } = findBuild(c, (id) => `Build with id ${id} not found`);
    if (!build) return response;
    store.delete(build.id);
    return c.json({ id: build.id, messages: messages('delete') });
  });

  app.put('/tool/:toolname/builds/:id/cancel', (c) => {
    const { build, response } = findBuild(c, (id) => `Build with id ${id} not found`);
    if (!build) return response;
    // B `Cancel`: finished builds and cancelled builds are a 409; PENDING/RUNNING/UNKNOWN cancel.
    if (build.status === 'BUILD_CANCELLED') {
      return fail(c, 409, `Build ${build.id} cannot be cancelled again. It has already been cancelled`);
    }
    if (isFinished(build.status)) {
      return fail(c, 409, `Build ${build.id} cannot be cancelled because it has already completed`);
    }
    store.cancel(build.id);
    return c.json({ id: build.id, messages: messages('cancel') });
  });

  app.get('/tool/:toolname/builds/:id/logs', (c) => {
    const { build, response } = findBuild(c, (id) => `Unable to find build with id '${id}'`);
    if (!build) return response;
    const raw = c.req.query('follow');
    const follow = parseGoBool(raw ?? 'false');
    if (follow === undefined) {
      // oapi-codegen's parameter binding error (an echo HTTPError).
      return c.json(
        { message: `Invalid format for parameter follow: parsing "${raw}": invalid syntax` },
        400,
      );
    }
    if (!follow && build.status === 'BUILD_PENDING') {
      // Without follow, the real service does not wait for the PipelineRun to start.
      return fail(c, 500, `Error getting the logs for ${build.id}: PipelineRun has not started yet`);
    }
    return streamBuildLogs(ctx, store, build, follow);
  });

  app.post('/tool/:toolname/clean', (c) => {
    const tool = c.get('tool');
    if (!store.hasProject(tool)) {
      return fail(
        c,
        500,
        `Error cleaning up: the project tool-${tool} does not exist, have you started a build yet?`,
      );
    }
    const lines = store.clean(tool);
    return c.json({ messages: messages('clean', { info: lines.length ? lines : ['Nothing to clean up'] }) });
  });

  app.get('/tool/:toolname/quotas', (c) => {
    const tool = c.get('tool');
    if (!store.hasProject(tool)) {
      return fail(
        c,
        500,
        'Error getting quota from Harbor: Quota cannot be displayed because no builds have run yet',
      );
    }
    const used = store.storageUsed(tool);
    const limit = REGISTRY_LIMIT_BYTES;
    return c.json({
      quota: {
        categories: [
          {
            name: 'Registry',
            items: [
              {
                name: 'Storage',
                limit: formatBytes(limit),
                used: formatBytes(used),
                available: formatBytes(Math.max(0, limit - used)),
                capacity: `${Math.round((used / limit) * 100)}%`,
              },
            ],
          },
        ],
      },
      messages: messages('quota'),
    });
  });

  return app;
}

/** Go's `strconv.ParseBool`. */
function parseGoBool(value: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

function metricsText(ctx: SandboxContext): string {
  const store = buildsStoreOf(ctx);
  const counts = new Map<string, number>();
  for (const tool of ctx.tools) {
    for (const build of store.list(tool)) counts.set(build.status, (counts.get(build.status) ?? 0) + 1);
  }
  const lines = [
    '# HELP builds_api_builds Builds known to the sandbox, by status.',
    '# TYPE builds_api_builds gauge',
  ];
  for (const [status, count] of counts) lines.push(`builds_api_builds{status="${status}"} ${count}`);
  return `${lines.join('\n')}\n`;
}
