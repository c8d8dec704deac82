/**
 * The tool hosting platform sandbox: an in-process emulator of the Toolforge builds, components,
 * jobs, envvars and logs APIs behind one gateway app, served on two listeners like the real
 * platform (see auth.ts): an internal HTTPS server that authenticates tools by client certificate
 * (mTLS), and an external plain-HTTP server that only takes deploy tokens.
 *
 * Knobs for tests and demos (all documented where they live):
 * - builds: a `source_url` containing `fail` / `timeout` / `stuck` fails / times out / never ends
 *   (build-script.ts); `does-not-exist` in the URL or ref is unresolvable (400); more than 4
 *   unfinished builds → 409; `use_deprecated_versions` and high registry use add `messages.warning`.
 * - deprecation warnings: `options.deprecations` or `controls.setDeprecation('builds.list', msg)`
 *   adds `msg` to `messages.warning` of every response of that builds operation.
 * - deployments: time out after `deploymentTimeoutMs` (default 200 steps), e.g. with a `stuck` repo.
 */

import { createServer as createHttpsServer } from 'node:https';
import { Hono } from 'hono';
import { listen, serverFor, shut, urlHost } from '../http-server';
import type { ToolhostEnv } from './auth';
import { createBuildsArea } from './builds';
import { buildsStoreOf } from './builds-store';
import { type CertPair, sandboxCerts } from './certs';
import { createComponentsArea } from './components';
import { componentsStoreOf } from './components-store';
import { type SandboxContext, SandboxTimers } from './context';
import { createEnvvarsArea } from './envvars';
import { areaOfPath, errorBody, notFoundBody } from './errors';
import { outageGate, type SandboxApi, setUnhealthy } from './health';
import { AnswerHolds, type HeldRequest } from './hold';
import { createJobsArea } from './jobs';
import { createPublicWebApp } from './jobs-publish';
import { createLogsArea } from './logs';
import { seedToolhost } from './seed';

/** Options of {@link startToolhostSandbox}. */
export interface ToolhostSandboxOptions {
  /** Duration of one lifecycle step in ms. Default 1500 (a human sees progress); tests use 5–20. */
  stepMs?: number;
  /** Address both listeners bind to. Default `127.0.0.1`. */
  host?: string;
  /** Seed `mytool` and `demo` (seed.ts). Default true. */
  seed?: boolean;
  /** More (empty) tools that exist, each with a client certificate. */
  tools?: string[];
  /** Deployments pending/running longer than this become `timed_out`. Default 200 steps. */
  deploymentTimeoutMs?: number;
  /** Deprecation warnings by `<area>.<operationId>`, e.g. `{ 'builds.list': '…' }`. */
  deprecations?: Record<string, string>;
  /**
   * Domain of the public web front (published jobs answer at `<tool>.<domain>`). Default `localhost`,
   * so `http://mytool.localhost:<port>/` works in a browser and curl on this machine.
   */
  publicDomain?: string;
}

/** Test and demo controls over the sandbox state. */
export interface ToolhostControls {
  /** Pretends the tool's images use `bytes` of registry storage (undefined: the real sum). */
  setRegistryUsage(tool: string, bytes: number | undefined): void;
  /** Sets (or with undefined clears) the deprecation warning of `<area>.<operationId>`. */
  setDeprecation(key: string, message: string | undefined): void;
  /** Makes the tool's deploy token older than its 365-day lifetime. */
  expireDeployToken(tool: string): void;
  /** Holds every deployment in its current state until released (a test needs one still running). */
  holdDeployments(hold: boolean): void;
  /** Ends every open live log stream now (clients see the stream end and must reconnect). */
  breakStreams(): void;
  /** Makes an API's `/healthz` report ERROR (and 500/503 as the real one does) until set back. */
  setUnhealthy(api: SandboxApi, message: string | undefined): void;
  /** Carries out the next `method` request whose path matches, and holds its answer (hold.ts). */
  holdNext(method: string, path: RegExp): HeldRequest;
  /** How many `method` requests whose path matches were carried out. */
  carried(method: string, path: RegExp): number;
}

/** A running sandbox. */
export interface ToolhostSandbox {
  /** Plain-HTTP gateway (deploy tokens only), e.g. `http://127.0.0.1:40123`. */
  externalUrl: string;
  /** HTTPS gateway with mTLS, e.g. `https://127.0.0.1:40124`. */
  internalUrl: string;
  /** PEM of the CA to trust for {@link internalUrl}. */
  ca: string;
  /** The public web front (published jobs), plain HTTP, routed by `Host` (jobs-publish.ts). */
  publicUrl: string;
  /** Where a tool's published job answers: `http://<tool>.<publicDomain>:<port>/`. */
  publicUrlFor(tool: string): string;
  /** The client certificate of a tool (CN = tool); throws for a tool that does not exist. */
  certFor(tool: string): CertPair;
  /** The tool's current deploy token, if it has one. */
  deployTokenFor(tool: string): string | undefined;
  /** The shared state of the areas. */
  ctx: SandboxContext;
  /** State controls for tests and demos. */
  controls: ToolhostControls;
  /** Stops every timer, stream and listener. */
  close(): Promise<void>;
}

/** Default step of the sandbox (ms). */
export const DEFAULT_STEP_MS = 1500;

/** A fresh context with no tools (seed it with `seedToolhost`). */
export function createSandboxContext(
  options: Pick<ToolhostSandboxOptions, 'stepMs' | 'tools' | 'deploymentTimeoutMs' | 'deprecations'> = {},
): SandboxContext {
  return {
    timings: {
      stepMs: options.stepMs ?? DEFAULT_STEP_MS,
      deploymentTimeoutMs: options.deploymentTimeoutMs,
    },
    tools: new Set(options.tools ?? []),
    timers: new SandboxTimers(),
    deprecations: new Map(Object.entries(options.deprecations ?? {})),
  };
}

/**
 * The gateway app: every area mounted at its prefix (`/builds/v1`, `/components`, `/jobs/v1`,
 * `/envvars/v1`, `/logs`), unknown routes and crashes answered in the area's own shape.
 */
export function createToolhostApp(ctx: SandboxContext, holds?: AnswerHolds): Hono<ToolhostEnv> {
  const app = new Hono<ToolhostEnv>();
  if (holds) app.use('*', holds.middleware());
  app.use('*', async (c, next) => {
    c.set('sandbox', ctx);
    await next();
  });
  app.use('*', outageGate(ctx));
  app.route('/builds/v1', createBuildsArea(ctx));
  app.route('/components', createComponentsArea(ctx));
  app.route('/jobs/v1', createJobsArea(ctx));
  app.route('/envvars/v1', createEnvvarsArea(ctx));
  app.route('/logs', createLogsArea(ctx));
  app.notFound((c) => c.json(notFoundBody(c.req.path) as object, 404));
  app.onError((error, c) => {
    const area = areaOfPath(c.req.path) ?? 'jobs';
    return c.json(errorBody(area, 500, `Internal error: ${error.message}`) as object, 500);
  });
  return app;
}

/** Starts the sandbox on two OS-chosen ports of `host`. */
export async function startToolhostSandbox(options: ToolhostSandboxOptions = {}): Promise<ToolhostSandbox> {
  const host = options.host ?? '127.0.0.1';
  const ctx = createSandboxContext(options);
  ctx.publicDomain = options.publicDomain ?? 'localhost';
  const holds = new AnswerHolds();
  const app = createToolhostApp(ctx, holds);
  if (options.seed !== false) seedToolhost(ctx);

  const certs = await sandboxCerts();
  const clientCerts = new Map<string, CertPair>();
  for (const tool of ctx.tools) clientCerts.set(tool, await certs.clientFor(tool));

  const internal = serverFor({
    fetch: app.fetch,
    createServer: createHttpsServer,
    serverOptions: {
      key: certs.server.key,
      cert: certs.server.cert,
      ca: [certs.ca],
      // Certificates are requested and verified, but a missing one is answered per route (401 on
      // tool routes) so health and metrics stay reachable, as on the real gateway.
      requestCert: true,
      rejectUnauthorized: false,
    },
  });
  const external = serverFor({ fetch: app.fetch });
  const front = serverFor({ fetch: createPublicWebApp(ctx).fetch });
  const [internalPort, externalPort, frontPort] = await Promise.all([
    listen(internal, host),
    listen(external, host),
    listen(front, host),
  ]);
  const at = urlHost(host);

  return {
    externalUrl: `http://${at}:${externalPort}`,
    internalUrl: `https://${at}:${internalPort}`,
    ca: certs.ca,
    publicUrl: `http://${at}:${frontPort}`,
    publicUrlFor: (tool) => `http://${tool}.${ctx.publicDomain}:${frontPort}/`,
    certFor(tool) {
      const pair = clientCerts.get(tool);
      if (!pair)
        throw new Error(`no client certificate for tool '${tool}': it does not exist in this sandbox`);
      return pair;
    },
    deployTokenFor: (tool) => componentsStoreOf(ctx).token(tool)?.token,
    ctx,
    controls: {
      setRegistryUsage: (tool, bytes) => buildsStoreOf(ctx).setStorageUsed(tool, bytes),
      setDeprecation: (key, message) => {
        ctx.deprecations ??= new Map();
        if (message === undefined) ctx.deprecations.delete(key);
        else ctx.deprecations.set(key, message);
      },
      expireDeployToken: (tool) => componentsStoreOf(ctx).expireToken(tool),
      holdDeployments: (hold) => {
        ctx.timings.holdDeployments = hold;
      },
      breakStreams: () => ctx.timers?.breakStreams(),
      setUnhealthy: (api, message) => setUnhealthy(ctx, api, message),
      holdNext: (method, path) => holds.holdNext(method, path),
      carried: (method, path) => holds.count(method, path),
    },
    async close() {
      ctx.timers?.close();
      await Promise.all([shut(internal), shut(external), shut(front)]);
    },
  };
}

export type { ToolhostEnv } from './auth';
export type { CertPair } from './certs';
export { seedToolhost } from './seed';
