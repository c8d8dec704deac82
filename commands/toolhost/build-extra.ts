import { quotaFields, withWarnings } from '../format';
import { resolveBuildId } from './build';
import { command, toolCommand } from './context';
import { registerLogSecrets } from './log-secrets';
import { buildLogsSignature } from './signatures';
import { startTail } from './tail';

/** Lines of a log shown inline; the whole log is attached when longer. */
export const INLINE_LOG_LINES = 40;

/** `/build logs <tool> [id|latest]`: the build's log, last lines inline and the whole as a file. */
export const buildLogsCommand = command({
  ...buildLogsSignature,
  positional: ['tool', 'id'],
  examples: ['/build logs mytool', '/build logs mytool latest --follow'],
  permission: 'read',
  async run(ctx) {
    const { args, services } = ctx;
    const client = services.toolhost.forTool(args.tool);
    const id = await resolveBuildId(client, args.id);
    await registerLogSecrets(services, client, args.tool);
    if (args.follow) {
      await client.builds.show(id);
      return startTail(ctx, 'build', args.tool, id);
    }
    const lines: string[] = [];
    for await (const entry of client.builds.logs(id)) lines.push(entry.line);
    if (lines.length === 0) {
      return withWarnings(
        { text: `Build ${id} has no log lines yet.`, status: 'info', footer: `build ${id}` },
        client,
      );
    }
    const shown = lines.slice(-INLINE_LOG_LINES);
    const card = {
      title: `Log of build ${id}`,
      code: { text: shown.join('\n') },
      status: 'info' as const,
      footer:
        lines.length > shown.length
          ? `last ${shown.length} of ${lines.length} lines; the whole log is attached`
          : `${lines.length} lines`,
      ...(lines.length > shown.length
        ? { attachments: [{ filename: `${id}.log`, content: `${lines.join('\n')}\n` }] }
        : {}),
    };
    return withWarnings(card, client);
  },
});

/** `/build clean <tool>`: removes old images and build leftovers. */
export const buildCleanCommand = toolCommand({
  name: 'build clean',
  permission: 'write',
  guarded: true,
  overridable: true,
  confirm: (args) => `Clean up the old images and build leftovers of ${args.tool}?`,
  async resolve({ args, services }) {
    // The whole tool is the target: an unknown tool (or one Deckhand has no access to) is said now.
    const client = services.toolhost.forTool(args.tool);
    await client.builds.quotas();
    return { label: `The builds of ${args.tool}`, args };
  },
  async run({ args, client }) {
    const messages = await client.builds.clean();
    return {
      title: `Cleaned ${args.tool}`,
      text: messages.join('\n') || 'Nothing to clean.',
      status: 'success',
    };
  },
});

/** `/build quota <tool>`. */
export const buildQuotaCommand = toolCommand({
  name: 'build quota',
  permission: 'read',
  async run({ args, client }) {
    const quota = await client.builds.quotas();
    return { title: `Build quota of ${args.tool}`, fields: quotaFields(quota), status: 'info' };
  },
});
