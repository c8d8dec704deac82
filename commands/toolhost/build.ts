import { z } from 'zod';
import { UpstreamError, UsageError } from '../../src/core/errors';
import { translators } from '../../src/core/languages';
import { mustExist } from '../../src/core/target';
import { tableTime } from '../../src/core/times';
import { t, translator } from '../../src/i18n/translate';
import type { ToolhostClient } from '../../src/services/toolhost';
import { httpUrl, toolName } from '../args';
import { table, withWarnings } from '../format';
import { BUILD_WORD, buildCard } from './build-card';
import { command, toolCommand } from './context';
import { postFollowing } from './follow';
import { buildSince } from './recognise';
import { buildCancelSignature, buildIdArgs } from './signatures';
import { startOnce } from './start-once';

/** `latest` → the id of the tool's most recent build. */
export async function resolveBuildId(client: ToolhostClient, id: string): Promise<string> {
  return id === 'latest' ? (await client.builds.latest()).build_id : id;
}

/** Build-time variables `NAME=value` as the API wants them. */
function envvarsOf(pairs: readonly string[]): Record<string, string> | undefined {
  if (pairs.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

/** `/build start <tool> <source_url> …`. */
export const buildStartCommand = command({
  name: 'build start',
  args: z.object({
    tool: toolName,
    sourceUrl: httpUrl('https://gitlab.wikimedia.org/toolforge-repos/mytool').describe('opt-source-url'),
    ref: z.string().min(1).max(250).optional().describe('opt-ref'),
    image: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,127}$/, t('en', 'build-image-invalid'))
      .meta({ invalid: 'build-image-invalid' })
      .optional()
      .describe('opt-image'),
    env: z
      .array(z.string().regex(/^[A-Za-z_][A-Za-z_0-9]{2,}=/, t('en', 'build-env-invalid')))
      .meta({ invalid: 'build-env-invalid' })
      .default([])
      .describe('opt-env'),
    latestVersions: z.boolean().default(false).describe('opt-latest-versions'),
    deprecatedVersions: z.boolean().default(false).describe('opt-deprecated-versions'),
  }),
  positional: ['tool', 'sourceUrl'],
  examples: ['/build start mytool https://gitlab.wikimedia.org/toolforge-repos/mytool --ref main'],
  permission: 'write',
  // An interrupted attempt's build is the one of the same source and ref started since it began.
  effect: { check: (args) => `/build list ${args.tool}`, recover: async () => 'run' },
  async run({ args, services, reply, invocation, interrupted, say = translator(undefined) }) {
    if (args.latestVersions && args.deprecatedVersions) {
      throw UsageError.inWords((say) => ({ message: say.t('build-versions-both') }));
    }
    const client = services.toolhost.forTool(args.tool);
    const envvars = envvarsOf(args.env);
    // One build of a source and ref at a time across processes; a repeat shows the running one.
    const { value: build, note } = await startOnce({
      resource: `build:${args.tool}:${args.sourceUrl}#${args.ref ?? ''}`,
      invocation,
      locks: services.locks,
      show: (id) => client.builds.show(id),
      isRunning: (b) => b.status === 'BUILD_PENDING' || b.status === 'BUILD_RUNNING',
      alreadyRunning: say.t('build-already-running'),
      busy: say.t('build-busy', args.tool),
      interrupted,
      async findOwn(since) {
        const own = buildSince(await client.builds.list(), args, since);
        return own ? { value: own, id: own.build_id } : undefined;
      },
      async start() {
        const started = await client.builds.start({
          source_url: args.sourceUrl,
          ...(args.ref ? { ref: args.ref } : {}),
          ...(args.image ? { image_name: args.image } : {}),
          ...(envvars ? { envvars } : {}),
          ...(args.latestVersions ? { use_latest_versions: true } : {}),
          ...(args.deprecatedVersions ? { use_deprecated_versions: true } : {}),
        });
        return { value: await client.builds.show(started.name), id: started.name };
      },
    });
    const card = buildCard(args.tool, build, note ?? say.t('build-started'), say);
    const work = { kind: 'build', id: build.build_id, started: true, language: say.language };
    return postFollowing({ args, services, invocation, reply }, client, card, work);
  },
});

/** `/build list <tool>`. */
export const buildListCommand = toolCommand({
  name: 'build list',
  permission: 'read',
  async run({ args, client, say = translator(undefined) }) {
    const builds = await client.builds.list();
    if (builds.length === 0) return { text: say.t('build-list-none', args.tool), status: 'info' };
    const sorted = [...builds].sort((a, b) => (b.start_time ?? '9').localeCompare(a.start_time ?? '9'));
    const rows = sorted.map((b) => [
      b.build_id,
      BUILD_WORD[b.status],
      tableTime(b.start_time ? new Date(b.start_time) : undefined),
      b.parameters?.ref ?? '',
    ]);
    return {
      title: say.t('build-list-title', args.tool),
      // Column heads stay English, as the platform's CLI writes them.
      code: { text: table([['ID', 'STATUS', 'STARTED (UTC)', 'REF'], ...rows]) },
      status: 'info',
    };
  },
});

/** `/build show <tool> [id|latest]`. */
export const buildShowCommand = toolCommand({
  name: 'build show',
  args: buildIdArgs,
  positional: ['tool', 'id'],
  examples: ['/build show mytool', '/build show mytool mytool-buildpacks-pipelinerun-abcde'],
  permission: 'read',
  async run({ args, client, say }) {
    const build = args.id === 'latest' ? await client.builds.latest() : await client.builds.show(args.id);
    return buildCard(args.tool, build, undefined, say);
  },
});

/** `/build latest <tool>`. */
export const buildLatestCommand = toolCommand({
  name: 'build latest',
  permission: 'read',
  async run({ args, client, say }) {
    return buildCard(args.tool, await client.builds.latest(), undefined, say);
  },
});

/** `/build cancel <tool> [id|latest]`. */
export const buildCancelCommand = toolCommand({
  ...buildCancelSignature,
  positional: ['tool', 'id'],
  examples: ['/build cancel mytool', '/build cancel mytool mytool-buildpacks-pipelinerun-abcde'],
  permission: 'write',
  async run({ args, client, say = translator(undefined) }) {
    const id = await resolveBuildId(client, args.id);
    try {
      await client.builds.cancel(id);
    } catch (error) {
      if (error instanceof UpstreamError && error.status === 409) {
        const build = await client.builds.show(id);
        return buildCard(
          args.tool,
          build,
          say.t('build-cancel-nothing', BUILD_WORD[build.status], error.message),
          say,
        );
      }
      throw error;
    }
    return buildCard(args.tool, await client.builds.show(id), say.t('build-cancelled'), say);
  },
});

/** `/build delete <tool> <id|latest>` (confirmed first). */
export const buildDeleteCommand = command({
  name: 'build delete',
  args: buildIdArgs,
  positional: ['tool', 'id'],
  examples: ['/build delete mytool mytool-buildpacks-pipelinerun-abcde'],
  permission: 'write',
  guarded: true,
  overridable: true,
  confirm: (args, _target, say = translator('en')) => say.t('build-delete-confirm', args.id, args.tool),
  async resolve({ args, services, invocation }) {
    const client = services.toolhost.forTool(args.tool);
    const build = await mustExist(
      () => (args.id === 'latest' ? client.builds.latest() : client.builds.show(args.id)),
      (say) => ({
        message:
          args.id === 'latest'
            ? say.t('build-delete-none', args.tool)
            : say.t('build-not-found', args.id, args.tool),
        hint: say.t('build-see-list', args.tool),
      }),
    );
    return {
      label: translators(invocation).say.t('build-delete-target', build.build_id, args.tool),
      args: { ...args, id: build.build_id },
      ...(build.start_time ? { version: build.start_time } : {}),
    };
  },
  async run({ args, services, say = translator(undefined) }) {
    // `resolve` bound the id before the question: `latest` never reaches here.
    const client = services.toolhost.forTool(args.tool);
    const id = await client.builds.delete(args.id);
    return withWarnings({ text: say.t('build-deleted', id, args.tool), status: 'success' }, client);
  },
});
