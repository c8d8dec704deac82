import { z } from 'zod';
import { tableTime } from '../../src/core/times';
import { toolName } from '../args';
import { table } from '../format';
import { command } from './context';

function argsText(args: Record<string, unknown>): string {
  const text = Object.entries(args)
    .filter(([key, value]) => key !== 'tool' && value !== undefined && value !== false)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join(',') : String(value)}`)
    .join(' ');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** `/audit [tool] [--limit N]`: the latest side-effect commands (admins; maintainers for their tool). */
export const auditCommand = command({
  name: 'audit',
  args: z.object({
    tool: toolName.optional(),
    limit: z.number().int().min(1).max(100).default(20).describe('opt-limit'),
  }),
  examples: ['/audit mytool', '/audit --limit 50'],
  permission: 'write',
  sideEffect: false,
  async run({ args, services }) {
    const entries = await services.accounts.audit.recent({
      limit: args.limit,
      ...(args.tool ? { tool: args.tool } : {}),
    });
    const scope = args.tool ? ` of ${args.tool}` : '';
    if (entries.length === 0) return { text: `No audited commands${scope} yet.`, status: 'info' };
    const rows = entries.map((e) => [
      tableTime(e.at),
      e.identity ? `${e.name || e.user} (${e.identity})` : e.name || e.user,
      `/${e.command}`,
      e.tool ?? '',
      e.outcome,
      argsText(e.args),
    ]);
    return {
      title: `Audit${scope}: the latest ${entries.length}`,
      code: { text: table([['WHEN (UTC)', 'WHO', 'COMMAND', 'TOOL', 'OUTCOME', 'ARGUMENTS'], ...rows]) },
      status: 'info',
      footer: 'Arguments that are secrets are never recorded.',
    };
  },
});
