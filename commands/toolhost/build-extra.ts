import { replyLanguage } from '../../src/core/languages';
import { translator } from '../../src/i18n/translate';
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
    const say = ctx.say ?? translator(undefined);
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
        { text: say.t('build-log-empty', id), status: 'info', footer: say.t('build-card-footer', id) },
        client,
      );
    }
    const shown = lines.slice(-INLINE_LOG_LINES);
    const card = {
      title: say.t('build-log-title', id),
      code: { text: shown.join('\n') },
      status: 'info' as const,
      footer:
        lines.length > shown.length
          ? say.t('build-log-footer-attached', shown.length, lines.length)
          : say.t('build-log-footer', lines.length),
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
  confirm: (args, _target, say = translator('en')) => say.t('build-clean-confirm', args.tool),
  async resolve({ args, services, invocation }) {
    // The whole tool is the target: an unknown tool (or one Deckhand has no access to) is said now.
    const client = services.toolhost.forTool(args.tool);
    await client.builds.quotas();
    return { label: translator(replyLanguage(invocation)).t('build-clean-target', args.tool), args };
  },
  async run({ args, client, say = translator(undefined) }) {
    const messages = await client.builds.clean();
    return {
      title: say.t('build-clean-title', args.tool),
      text: messages.join('\n') || say.t('build-clean-nothing'),
      status: 'success',
    };
  },
});

/** `/build quota <tool>`. */
export const buildQuotaCommand = toolCommand({
  name: 'build quota',
  permission: 'read',
  async run({ args, client, say = translator(undefined) }) {
    const quota = await client.builds.quotas();
    return { title: say.t('build-quota-title', args.tool), fields: quotaFields(quota), status: 'info' };
  },
});
