/**
 * Seed data of the tool hosting sandbox, so that a newcomer can type `/deploy mytool` at once:
 * - `mytool`: a components config with one continuous component `web` (built from
 *   toolforge-repos/mytool@main, command `web`), a failed and a successful build (the successful one
 *   is what a deployment reuses, so `/deploy mytool` goes pending → running → successful in about
 *   three steps), a deploy token, and one successful deployment from yesterday.
 * - `demo`: a config with a continuous component `api` and a scheduled component `nightly` that
 *   reuses the build of `api`, and one successful build. No deploy token, no deployments.
 */
import { buildsStoreOf } from './builds-store';
import { componentsStoreOf } from './components-store';
import type { SandboxContext } from './context';
import { seedJobsLogsEnvvars } from './seed-jobs';
import type { ToolConfig } from './tool-config';

/** Tools the seed creates. */
export const SEEDED_TOOLS = ['mytool', 'demo'] as const;

const DAY = 24 * 3600 * 1000;

/** Source repository of a seeded tool. */
export function seededRepository(tool: string): string {
  return `https://gitlab.wikimedia.org/toolforge-repos/${tool}`;
}

/** The seeded config of `mytool`. */
export const MYTOOL_CONFIG: ToolConfig = {
  config_version: 'v1beta1',
  components: {
    web: {
      component_type: 'continuous',
      build: { repository: seededRepository('mytool'), ref: 'main' },
      run: { command: 'web', port: 8000, publish: '/' },
    },
  },
};

/** The seeded config of `demo`. */
export const DEMO_CONFIG: ToolConfig = {
  config_version: 'v1beta1',
  components: {
    api: {
      component_type: 'continuous',
      build: { repository: seededRepository('demo'), ref: 'main' },
      run: { command: 'web', port: 8000 },
    },
    nightly: {
      component_type: 'scheduled',
      build: { reuse_from: 'api' },
      run: { command: './nightly.sh', schedule: '@daily' },
    },
  },
};

function params(tool: string, ref: string, image: string) {
  return {
    source_url: seededRepository(tool),
    ref,
    image_name: image,
    envvars: {},
    use_latest_versions: false,
    use_deprecated_versions: false,
  };
}

/** Seeds the sandbox (the areas must exist already). */
export function seedToolhost(ctx: SandboxContext): void {
  for (const tool of SEEDED_TOOLS) ctx.tools.add(tool);
  const builds = buildsStoreOf(ctx);
  const components = componentsStoreOf(ctx);

  builds.seedFinished('mytool', params('mytool', 'broken-dependency', 'web'), 'failure', 3 * DAY);
  const good = builds.seedFinished('mytool', params('mytool', 'main', 'web'), 'success', 2 * DAY);
  components.setConfig('mytool', MYTOOL_CONFIG);
  components.issueToken('mytool', new Date(Date.now() - 30 * DAY));
  const deployment = components.create('mytool', MYTOOL_CONFIG, {
    description: 'Initial deployment',
    forceBuild: false,
    forceRun: false,
    at: new Date(Date.now() - DAY),
  });
  Object.assign(deployment.data, {
    status: 'successful',
    long_status: `Finished at ${new Date(Date.now() - DAY + 20_000).toISOString()}`,
    builds: {
      web: {
        build_id: good.id,
        build_status: 'successful',
        build_image: good.destinationImage,
        build_long_status: `Build ${good.id} is BUILD_SUCCESS`,
      },
    },
    runs: { web: { run_status: 'successful', run_long_status: 'Job web created or updated' } },
  });

  builds.seedFinished('demo', params('demo', 'main', 'api'), 'success', DAY);
  components.setConfig('demo', DEMO_CONFIG);
  seedJobsLogsEnvvars(ctx);
}
