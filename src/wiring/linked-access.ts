/**
 * What linked accounts mean for permissions: a linked deploy token for a tool, and push access of the
 * linked source-host account to the tool's source repository — the repository of the tool's
 * components configuration, or else of its latest build — cached for a few minutes.
 */
import type { Logger } from 'pino';
import type { LinkedAccess, PushAccess, ToolSource } from '../core/access';
import type { ChatUser } from '../core/command';
import { UpstreamError } from '../core/errors';
import { translator } from '../i18n/translate';
import type { SourcehostFactory } from '../services/sourcehost';
import type { ToolhostClientFactory } from '../services/toolhost';
import type { PushAccessCache } from '../store/links-permissions';
import { VaultLockedError } from '../store/sealer';
import type { Credentials } from '../store/vault-credentials';

/** The seeded tools' repository host, mirrored by the sandbox source host. */
export const SANDBOX_MIRROR_HOST = 'gitlab.wikimedia.org';

/** What {@link LinkedAccountAccess} needs. */
export interface LinkedAccountAccessDeps {
  credentials: Credentials;
  sourcehost: SourcehostFactory;
  toolhost: ToolhostClientFactory;
  cache: PushAccessCache<PushAccess>;
  /** Host names whose `https://<host>/<owner>/<name>` URLs name source-host repositories. */
  repoHosts: readonly string[];
  logger: Logger;
}

/** A repository on the source host. */
export interface SourceRepository {
  owner: string;
  name: string;
}

/** `https://host/owner/name(.git)` → owner and name, when `host` is one of `hosts`. */
export function parseRepositoryUrl(url: string, hosts: readonly string[]): SourceRepository | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!hosts.includes(parsed.host) && !hosts.includes(parsed.hostname)) return undefined;
  const [owner, name] = parsed.pathname.split('/').filter(Boolean);
  if (!owner || !name) return undefined;
  return { owner, name: name.replace(/\.git$/, '') };
}

/** {@link LinkedAccess} backed by the vault, the source host and the tool host. */
export class LinkedAccountAccess implements LinkedAccess {
  constructor(private readonly deps: LinkedAccountAccessDeps) {}

  async hasDeployToken(user: ChatUser, tool: string): Promise<boolean> {
    try {
      return Boolean(await this.deps.credentials.deployToken(user, tool));
    } catch (error) {
      if (error instanceof VaultLockedError) return false;
      throw error;
    }
  }

  async pushAccess(user: ChatUser, tool: string): Promise<PushAccess> {
    let source: Awaited<ReturnType<Credentials['source']>>;
    try {
      source = await this.deps.credentials.source(user);
    } catch (error) {
      if (error instanceof VaultLockedError) return { kind: 'unavailable', reason: error.message };
      throw error;
    }
    if (!source) return { kind: 'not-linked' };
    const cached = await this.deps.cache.get(user, tool);
    if (cached) return cached;
    const result = await this.resolve(source.token, source.login, tool);
    if (result.kind !== 'unavailable') await this.deps.cache.set(user, tool, result);
    return result;
  }

  /** The tool's source repository, if it lives on the source host. */
  async repositoryOf(tool: string): Promise<SourceRepository | undefined> {
    return (await this.sourceOf(tool))?.repo;
  }

  /**
   * Where the tool's source is: the first repository of its components configuration that is on the
   * source host (else the first one), with its ref; without a configuration, its latest build's.
   */
  async sourceOf(tool: string): Promise<ToolSource | undefined> {
    const client = this.deps.toolhost.forTool(tool);
    const found: { url: string; ref?: string }[] = [];
    try {
      const config = await client.components.getConfig();
      for (const component of Object.values(config.components ?? {})) {
        const build = (component as { build?: { repository?: unknown; ref?: unknown } }).build;
        if (typeof build?.repository !== 'string') continue;
        found.push({ url: build.repository, ...(typeof build.ref === 'string' ? { ref: build.ref } : {}) });
      }
    } catch (error) {
      this.deps.logger.debug({ err: error, tool }, 'no components config to find the source repository');
    }
    if (found.length === 0) {
      try {
        const latest = await client.builds.latest();
        const url = latest.parameters?.source_url;
        const ref = latest.parameters?.ref;
        if (url) found.push({ url, ...(ref ? { ref } : {}) });
      } catch (error) {
        this.deps.logger.debug({ err: error, tool }, 'no build to find the source repository');
      }
    }
    const sources: ToolSource[] = found.map((source) => {
      const repo = parseRepositoryUrl(source.url, this.deps.repoHosts);
      return repo ? { ...source, repo } : source;
    });
    return sources.find((source) => source.repo) ?? sources[0];
  }

  private async resolve(token: string, login: string, tool: string): Promise<PushAccess> {
    let repo: SourceRepository | undefined;
    try {
      repo = await this.repositoryOf(tool);
    } catch (error) {
      return { kind: 'unavailable', reason: error instanceof Error ? error.message : String(error) };
    }
    if (!repo) return { kind: 'unknown-repo' };
    const full = `${repo.owner}/${repo.name}`;
    try {
      const found = await this.deps.sourcehost.forToken(token).account.repository(repo.owner, repo.name);
      return { kind: found.permissions?.push ? 'push' : 'no-push', login, repo: full };
    } catch (error) {
      if (error instanceof UpstreamError && error.status === 404)
        return { kind: 'no-push', login, repo: full };
      if (error instanceof UpstreamError && error.status === 401) {
        return {
          kind: 'unavailable',
          // English, like the other reasons here (errors' own messages).
          reason: translator('en').t('oauth-linked-token-refused'),
        };
      }
      return { kind: 'unavailable', reason: error instanceof Error ? error.message : String(error) };
    }
  }
}
