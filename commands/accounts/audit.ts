import { z } from 'zod';
import { tableTime } from '../../src/core/times';
import { translator } from '../../src/i18n/translate';
import { toolName } from '../args';
import { table } from '../format';
import { command } from './context';

const ENGLISH = translator('en');

function argsText(args: Record<string, unknown>): string {
  const text = Object.entries(args)
    .filter(([key, value]) => key !== 'tool' && value !== undefined && value !== false)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join(',') : String(value)}`)
    .join(' ');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * `/audit [tool] [--limit N]`: the latest side-effect commands (admins; maintainers for their tool).
 * The records are shown as stored (English); the words around them are the reader's.
 */
export const auditCommand = command({
  name: 'audit',
  args: z.object({
    tool: toolName.optional(),
    limit: z.number().int().min(1).max(100).default(20).describe('opt-limit'),
  }),
  examples: ['/audit mytool', '/audit --limit 50'],
  permission: 'write',
  sideEffect: false,
  async run({ args, services, say = ENGLISH }) {
    const entries = await services.accounts.audit.recent({
      limit: args.limit,
      ...(args.tool ? { tool: args.tool } : {}),
    });
    if (entries.length === 0)
      return {
        text: args.tool ? say.t('audit-none-of', args.tool) : say.t('audit-none'),
        status: 'info',
      };
    const rows = entries.map((e) => [
      tableTime(e.at),
      e.identity ? `${e.name || e.user} (${e.identity})` : e.name || e.user,
      `/${e.command}`,
      e.tool ?? '',
      e.outcome,
      argsText(e.args),
    ]);
    const header = [
      say.t('audit-column-when'),
      say.t('audit-column-who'),
      say.t('audit-column-command'),
      say.t('audit-column-tool'),
      say.t('audit-column-outcome'),
      say.t('audit-column-arguments'),
    ];
    return {
      title: args.tool
        ? say.t('audit-title-of', args.tool, entries.length)
        : say.t('audit-title', entries.length),
      code: { text: table([header, ...rows]) },
      status: 'info',
      footer: say.t('audit-footer-secrets'),
    };
  },
});
