/**
 * The values autocomplete offers, from the toolhost: the core's {@link SuggestionLister} port
 * (`src/core/suggestions.ts` decides what completes from what; adapters render the choices).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../src/config';
import type { SuggestionLister } from '../src/core/suggestions';
import type { AppServices } from './services';

/**
 * The tools Deckhand can act for: the sandbox's tools, or those with a client certificate in
 * `TOOLHOST_CERT_DIR`, a bot-wide deploy token, or configured maintainers.
 */
export function knownTools(config: Config, sandboxTools?: () => Iterable<string>): () => string[] {
  return () => {
    if (sandboxTools) return [...sandboxTools()].sort();
    const tools = new Set<string>();
    for (const entry of config.TOOLHOST_DEPLOY_TOKENS) tools.add(entry.slice(0, entry.indexOf('=')));
    for (const entry of config.TOOL_MAINTAINERS) tools.add(entry.slice(0, entry.indexOf('=')));
    const dir = config.TOOLHOST_CERT_DIR;
    if (dir && existsSync(dir)) {
      for (const name of readdirSync(dir)) if (existsSync(join(dir, name, 'client.crt'))) tools.add(name);
    }
    return [...tools].sort();
  };
}

/** Lists tools, and a tool's jobs (by name), builds and deployments (`latest` first, then newest). */
export function toolhostSuggestions(
  services: Pick<AppServices, 'toolhost'>,
  tools: () => string[],
): SuggestionLister {
  return {
    tools,
    async list(source, tool) {
      const client = services.toolhost.forTool(tool);
      switch (source) {
        case 'jobs':
          return (await client.jobs.list()).map((job) => job.name).sort();
        case 'builds': {
          const builds = await client.builds.list();
          const newest = [...builds].sort((a, b) => (b.start_time ?? '').localeCompare(a.start_time ?? ''));
          return ['latest', ...newest.map((build) => build.build_id)];
        }
        case 'deployments': {
          const deployments = await client.components.listDeployments();
          const newest = [...deployments].sort((a, b) => b.creation_time.localeCompare(a.creation_time));
          return ['latest', ...newest.map((deployment) => deployment.deploy_id)];
        }
      }
    },
  };
}
