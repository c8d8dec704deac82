/**
 * A toolhost sandbox for the watch-scale benchmark: `tools` tools, each with the one-component config
 * of `mytool`, a successful build to reuse (so a deployment goes pending → running → successful in
 * three steps) and a deploy token; served on the external plain-HTTP listener only (deploy tokens are
 * all a watch needs), with every request to a deployment counted, and every deployment's status
 * changes timed as the emulator makes them.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandboxContext, createToolhostApp } from '@deckhand/sandbox/toolhost';
import { buildsStoreOf } from '@deckhand/sandbox/toolhost/builds-store';
import { componentsStoreOf, type DeploymentRecord } from '@deckhand/sandbox/toolhost/components-store';
import type { SandboxContext } from '@deckhand/sandbox/toolhost/context';
import type { ToolConfig } from '@deckhand/sandbox/toolhost/tool-config';
import { createAdaptorServer } from '@hono/node-server';

/** One status a deployment entered, and when. */
export interface StatusChange {
  status: string;
  at: number;
}

/** The running counting sandbox. */
export interface CountingSandbox {
  externalUrl: string;
  ctx: SandboxContext;
  /** Deploy token of each tool. */
  tokens: Map<string, string>;
  /** Arrival times of the `GET …/deployment/<id>` requests, by deployment id. */
  polls: Map<string, number[]>;
  /** Status changes of each deployment (after {@link track}), by deployment id. */
  changes: Map<string, StatusChange[]>;
  /** Starts timing the status changes of a tool's deployment. */
  track(tool: string, id: string): void;
  close(): Promise<void>;
}

function configOf(tool: string): ToolConfig {
  return {
    config_version: 'v1beta1',
    components: {
      web: {
        component_type: 'continuous',
        build: { repository: `https://gitlab.wikimedia.org/toolforge-repos/${tool}`, ref: 'main' },
        run: { command: 'web' },
      },
    },
  };
}

/** Starts the sandbox with tools `<prefix>0 … <prefix>N-1`. */
export async function startCountingSandbox(options: {
  tools: string[];
  stepMs: number;
}): Promise<CountingSandbox> {
  const ctx = createSandboxContext({ stepMs: options.stepMs, tools: options.tools });
  const app = createToolhostApp(ctx);
  const builds = buildsStoreOf(ctx);
  const components = componentsStoreOf(ctx);
  const tokens = new Map<string, string>();
  for (const tool of options.tools) {
    builds.seedFinished(
      tool,
      {
        source_url: `https://gitlab.wikimedia.org/toolforge-repos/${tool}`,
        ref: 'main',
        image_name: 'web',
        envvars: {},
        use_latest_versions: false,
        use_deprecated_versions: false,
      },
      'success',
      3600_000,
    );
    components.setConfig(tool, configOf(tool));
    tokens.set(tool, components.issueToken(tool).token);
  }
  const polls = new Map<string, number[]>();
  const changes = new Map<string, StatusChange[]>();
  const pollPath = /\/deployment\/([^/?]+)$/;
  const server = createAdaptorServer({
    fetch: (request: Request, env: unknown) => {
      if (request.method === 'GET') {
        const id = pollPath.exec(new URL(request.url).pathname)?.[1];
        if (id && id !== 'latest') {
          const times = polls.get(id) ?? [];
          times.push(Date.now());
          polls.set(id, times);
        }
      }
      return app.fetch(request, env as never);
    },
    overrideGlobalObjects: false,
  }) as unknown as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    externalUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ctx,
    tokens,
    polls,
    changes,
    track(tool, id) {
      const record = components.get(tool, id) as DeploymentRecord | undefined;
      if (!record) throw new Error(`no deployment ${id} of ${tool}`);
      const log: StatusChange[] = [{ status: record.data.status, at: Date.now() }];
      changes.set(id, log);
      let status = record.data.status;
      Object.defineProperty(record.data, 'status', {
        configurable: true,
        enumerable: true,
        get: () => status,
        set: (next: typeof status) => {
          if (next !== status) log.push({ status: next, at: Date.now() });
          status = next;
        },
      });
    },
    async close() {
      ctx.timers?.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
