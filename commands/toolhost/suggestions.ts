/**
 * The tool platform's autocomplete listings: the values of the `tools`, `jobs`, `builds` and
 * `deployments` listings that the arguments of its commands declare (`.meta({ completes })`).
 */
import type { SuggestionLister } from '../../src/core/suggestions';

/** The platform as autocomplete sees it (the toolhost client factory satisfies it). */
export interface ListingSource {
  forTool(tool: string): {
    jobs: { list(): Promise<readonly { name: string }[]> };
    builds: { list(): Promise<readonly { build_id: string; start_time?: string | null | undefined }[]> };
    components: { listDeployments(): Promise<readonly { deploy_id: string; creation_time: string }[]> };
  };
}

/**
 * The values of the tool platform: `tools` (the tools Deckhand can act for), a tool's jobs by name,
 * its builds and deployments `latest` first, then newest first.
 */
export function toolListings(source: ListingSource, tools: () => string[]): SuggestionLister {
  return {
    tools,
    async list(kind, tool) {
      const client = source.forTool(tool);
      switch (kind) {
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
        default:
          return [];
      }
    },
  };
}
