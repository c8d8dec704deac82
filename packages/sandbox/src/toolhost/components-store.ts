/**
 * State of the emulated components API: per tool its `ToolConfig`, its deploy token and its
 * deployments (newest 25 kept). The deployment lifecycle itself lives in deployment-runner.ts.
 */
import { randomUUID } from 'node:crypto';
import type { SandboxContext } from './context';
import { compactUtc, newDeployId } from './ids';
import type { ToolConfig } from './tool-config';

/** `DeploymentState`. */
export type DeploymentState =
  | 'pending'
  | 'running'
  | 'failed'
  | 'timed_out'
  | 'successful'
  | 'cancelling'
  | 'cancelled';

/** `DeploymentBuildState`. */
export type DeploymentBuildState =
  | 'pending'
  | 'running'
  | 'failed'
  | 'successful'
  | 'unknown'
  | 'skipped'
  | 'cancelled';

/** `DeploymentRunState`. */
export type DeploymentRunState = 'pending' | 'failed' | 'successful' | 'skipped' | 'unknown';

/** `DeploymentBuildInfo`. */
export interface DeploymentBuildInfo {
  build_id: string;
  build_status: DeploymentBuildState;
  build_image: string;
  build_long_status: string;
}

/** `DeploymentRunInfo`. */
export interface DeploymentRunInfo {
  run_status: DeploymentRunState;
  run_long_status: string;
}

/** `Deployment`, exactly the fields the API returns. */
export interface Deployment {
  deploy_id: string;
  creation_time: string;
  description: string;
  builds: Record<string, DeploymentBuildInfo>;
  runs: Record<string, DeploymentRunInfo>;
  tool_config: ToolConfig | null;
  status: DeploymentState;
  long_status: string;
  force_build: boolean;
  force_run: boolean;
}

/** A stored deployment: the API object plus bookkeeping. */
export interface DeploymentRecord {
  tool: string;
  createdAt: number;
  data: Deployment;
}

/** `DeployToken`. */
export interface DeployToken {
  token: string;
  creation_date: string;
}

/** Deployments kept per tool. */
export const KEEP_DEPLOYMENTS = 25;
/** Deploy token lifetime (`token_lifetime`, 365 days). */
export const TOKEN_LIFETIME_MS = 365 * 24 * 3600 * 1000;
/** Name of the envvar that mirrors the deploy token. */
export const DEPLOY_TOKEN_ENVVAR = 'TOOL_DEPLOY_TOKEN';

/** The components state of one sandbox. */
export class ComponentsStore {
  private readonly configs = new Map<string, ToolConfig>();
  private readonly tokens = new Map<string, DeployToken>();
  private readonly deployments = new Map<string, DeploymentRecord[]>();
  private lastCreatedAt = 0;

  constructor(private readonly ctx: SandboxContext) {}

  /** The tool's config, if any. */
  config(tool: string): ToolConfig | undefined {
    return this.configs.get(tool);
  }

  /** Stores the tool's config. */
  setConfig(tool: string, config: ToolConfig): void {
    this.configs.set(tool, structuredClone(config));
  }

  /** Deletes the tool's config; returns it. */
  deleteConfig(tool: string): ToolConfig | undefined {
    const config = this.configs.get(tool);
    this.configs.delete(tool);
    return config;
  }

  /** The tool's deploy token, if any. */
  token(tool: string): DeployToken | undefined {
    return this.tokens.get(tool);
  }

  /** Issues a new token (create or refresh) and mirrors it into `TOOL_DEPLOY_TOKEN`. */
  issueToken(tool: string, createdAt = new Date()): DeployToken {
    const token = { token: randomUUID(), creation_date: createdAt.toISOString() };
    this.tokens.set(tool, token);
    this.ctx.envvars?.setEnvvar(tool, DEPLOY_TOKEN_ENVVAR, token.token);
    return token;
  }

  /** Deletes the token (and its envvar); returns it. */
  deleteToken(tool: string): DeployToken | undefined {
    const token = this.tokens.get(tool);
    if (!token) return undefined;
    this.tokens.delete(tool);
    this.ctx.envvars?.deleteEnvvar?.(tool, DEPLOY_TOKEN_ENVVAR);
    return token;
  }

  /** Moves a token's creation date back so that it has expired (for tests). */
  expireToken(tool: string): void {
    const token = this.tokens.get(tool);
    if (token) token.creation_date = new Date(Date.now() - TOKEN_LIFETIME_MS - 60_000).toISOString();
  }

  /**
   * Checks a deploy token as components `ensure_token_or_auth` does; returns the 401 message, or
   * undefined when it is valid. Note that the real service echoes the token in its messages.
   */
  verifyToken(tool: string, token: string): string | undefined {
    const stored = this.tokens.get(tool);
    if (!stored) return `The tool '${tool}' has no deploy token yet, create one first`;
    if (stored.token !== token) return `The token passed '${token}' does not match the tool's token`;
    if (Date.parse(stored.creation_date) + TOKEN_LIFETIME_MS < Date.now()) {
      return `The token passed '${token}' has expired, please create a new one`;
    }
    return undefined;
  }

  /** Deployments of a tool, oldest first (Kubernetes lists them by name, i.e. by creation time). */
  list(tool: string): DeploymentRecord[] {
    return [...(this.deployments.get(tool) ?? [])];
  }

  /** The newest deployment of a tool. */
  latest(tool: string): DeploymentRecord | undefined {
    return this.deployments.get(tool)?.at(-1);
  }

  /** A deployment by id. */
  get(tool: string, id: string): DeploymentRecord | undefined {
    return this.deployments.get(tool)?.find((record) => record.data.deploy_id === id);
  }

  /** Deployments still pending or running. */
  active(tool: string): DeploymentRecord[] {
    return this.list(tool).filter((record) => ['pending', 'running'].includes(record.data.status));
  }

  /** Creates a pending deployment of `config` (drops the oldest beyond {@link KEEP_DEPLOYMENTS}). */
  create(
    tool: string,
    config: ToolConfig,
    options: { description: string; forceBuild: boolean; forceRun: boolean; at?: Date },
  ): DeploymentRecord {
    this.lastCreatedAt = Math.max((options.at ?? new Date()).getTime(), this.lastCreatedAt + 1);
    const at = options.at ?? new Date(this.lastCreatedAt);
    const names = Object.keys(config.components);
    const record: DeploymentRecord = {
      tool,
      createdAt: options.at ? at.getTime() : this.lastCreatedAt,
      data: {
        deploy_id: newDeployId(at),
        creation_time: compactUtc(at),
        description: options.description,
        builds: Object.fromEntries(
          names.map((name) => [
            name,
            {
              build_id: 'no-id-yet',
              build_status: 'pending',
              build_image: 'no-image-yet',
              build_long_status: '',
            },
          ]),
        ),
        runs: Object.fromEntries(names.map((name) => [name, { run_status: 'pending', run_long_status: '' }])),
        tool_config: structuredClone(config),
        status: 'pending',
        long_status: '',
        force_build: options.forceBuild,
        force_run: options.forceRun,
      },
    };
    const list = this.deployments.get(tool) ?? [];
    list.push(record);
    list.sort((a, b) => a.createdAt - b.createdAt);
    while (list.length > KEEP_DEPLOYMENTS) list.shift();
    this.deployments.set(tool, list);
    return record;
  }

  /** Deletes a deployment; returns it. */
  delete(tool: string, id: string): DeploymentRecord | undefined {
    const list = this.deployments.get(tool) ?? [];
    const index = list.findIndex((record) => record.data.deploy_id === id);
    if (index < 0) return undefined;
    const [record] = list.splice(index, 1);
    return record;
  }
}

const stores = new WeakMap<SandboxContext, ComponentsStore>();

/** The components state of a sandbox (created on first use). */
export function componentsStoreOf(ctx: SandboxContext): ComponentsStore {
  let store = stores.get(ctx);
  if (!store) {
    store = new ComponentsStore(ctx);
    stores.set(ctx, store);
  }
  return store;
}
