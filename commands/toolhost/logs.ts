import { z } from 'zod';
import { actionTo } from '../../src/core/action-ref';
import { UsageError } from '../../src/core/errors';
import type { ActionRequest } from '../../src/core/reply';
import { t, translator } from '../../src/i18n/translate';
import { type JobLogsQuery, parseLogsCursor } from '../../src/services/toolhost';
import { existingJob, toolName } from '../args';
import { withWarnings } from '../format';
import { INLINE_LOG_LINES } from './build-extra';
import { command } from './context';
import { outputPlace } from './job-output';
import { formatLogEntry } from './log-format';
import { registerLogSecrets } from './log-secrets';
import { startTail } from './tail';

const DURATION = /^(\d+[dhms])+$/;
const TIME = /^(\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)$/;
const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };

const timeArg = (what: 'start' | 'end') =>
  z
    .string()
    .refine((v) => DURATION.test(v) || TIME.test(v), { message: t('en', 'logs-invalid-time') })
    .meta({ invalid: 'logs-invalid-time' })
    .optional()
    .describe(what === 'start' ? 'opt-since' : 'opt-until');

/** A duration ago (`2h`, `1d30m`) as an absolute time, so later pages read the same window. */
export function absoluteTime(value: string, now = Date.now()): string {
  if (!DURATION.test(value)) return value;
  let ms = 0;
  for (const [, amount, unit] of value.matchAll(/(\d+)([dhms])/g))
    ms += Number(amount) * (UNIT_MS[unit as string] ?? 0);
  return new Date(now - ms).toISOString();
}

/** Refuses a page cursor made for another tool or job (only its query is used, never its host). */
function assertCursorFor(url: string, tool: string, job: string): void {
  const path = new URL(url).pathname;
  if (!path.includes(`/tool/${encodeURIComponent(tool)}/job/${encodeURIComponent(job)}/`)) {
    throw UsageError.inWords((say) => ({ message: say.t('logs-cursor-other-job', job, tool) }));
  }
}

const logsArgs = z.object({
  tool: toolName,
  job: existingJob,
  lines: z
    .number()
    .int()
    .min(1, t('en', 'logs-lines-too-few'))
    .max(1000, t('en', 'logs-lines-too-many'))
    .default(50)
    .describe('opt-lines'),
  since: timeArg('start'),
  until: timeArg('end'),
  newestFirst: z.boolean().default(false).describe('opt-newest-first'),
  follow: z.boolean().default(false).describe('opt-follow-logs'),
  skip: z.number().int().min(0).max(100_000).default(0).describe('opt-skip').meta({ hidden: true }),
  order: z.enum(['newest_first', 'oldest_first']).optional().describe('opt-order').meta({ hidden: true }),
  cursor: z.url().optional().describe('opt-cursor').meta({ hidden: true }),
});

type LogsArgs = z.infer<typeof logsArgs>;

/**
 * The query for one page. Without `--since` the newest lines come first (a chat wants the latest, and
 * More goes back in time); with `--since` the window is read forward from that time. The window is
 * pinned to absolute times on the first page, and later pages skip the lines already shown — or follow
 * the service's own pagination link once it hands one out.
 */
function pageQuery(args: LogsArgs): JobLogsQuery {
  const want = args.skip + args.lines + 1;
  if (args.cursor) return { ...parseLogsCursor(args.cursor).query, lines: want };
  return {
    lines: want,
    direction: args.order ?? (args.since && !args.newestFirst ? 'oldest_first' : 'newest_first'),
    since: absoluteTime(args.since ?? '1h'),
    until: absoluteTime(args.until ?? '0s'),
  };
}

/** `/logs <tool> <job> [--lines N] [--since 1h] [--until 0s] [--newest-first]`, with a More button. */
export const logsCommand = command({
  name: 'logs',
  args: logsArgs,
  positional: ['tool', 'job'],
  examples: [
    '/logs mytool web',
    '/logs mytool web --lines 200 --since 2h',
    '/logs mytool web --newest-first',
  ],
  permission: 'read',
  async run(ctx) {
    const { args, services } = ctx;
    const say = ctx.say ?? translator('en');
    if (args.follow && args.newestFirst) {
      throw UsageError.inWords((said) => ({
        message: said.t('logs-follow-newest-first'),
        hint: said.t('help-example', `/logs ${args.tool} ${args.job} --follow`),
      }));
    }
    const client = services.toolhost.forTool(args.tool);
    if (args.follow) {
      await client.jobs.show(args.job);
      await registerLogSecrets(services, client, args.tool);
      return startTail(ctx, 'job', args.tool, args.job);
    }
    await registerLogSecrets(services, client, args.tool);
    if (args.cursor) assertCursorFor(args.cursor, args.tool, args.job);
    const query = pageQuery(args);
    const firstPage = args.skip === 0 && !args.cursor;
    // On the first page, the job itself says where its output goes (files in the tool home or here).
    const [page, job] = await Promise.all([
      client.logs.jobLogs(args.job, query),
      firstPage ? client.jobs.show(args.job) : Promise.resolve(undefined),
    ]);
    const toFiles =
      job?.filelog === true
        ? say.t('logs-to-files', args.job, outputPlace(args.tool, job, say) ?? '')
        : undefined;
    const fresh = page.logs.slice(args.skip);
    const entries = fresh.slice(0, args.lines);
    const more = fresh.length > args.lines || page.next !== undefined;
    if (entries.length === 0) {
      const text =
        args.skip > 0 || args.cursor
          ? say.t('logs-none-more', args.job, args.tool)
          : say.t('logs-none', args.job, args.tool);
      return withWarnings({ text: toFiles ? `${text}\n${toFiles}` : text, status: 'info' }, client);
    }
    const newestFirst = query.direction === 'newest_first';
    const ordered = newestFirst && !args.newestFirst ? [...entries].reverse() : entries;
    const lines = ordered.map(formatLogEntry);
    const shown = args.newestFirst ? lines.slice(0, INLINE_LOG_LINES) : lines.slice(-INLINE_LOG_LINES);
    const actions: ActionRequest[] = [];
    if (more) {
      const next =
        page.next && fresh.length <= args.lines
          ? { cursor: page.next.url, skip: Math.max(0, args.skip + args.lines - page.logs.length) }
          : { skip: args.skip + args.lines, ...(args.cursor ? { cursor: args.cursor } : {}) };
      const window = args.cursor ? {} : { since: query.since, until: query.until, order: query.direction };
      actions.push(
        actionTo(
          logsCommand,
          {
            tool: args.tool,
            job: args.job,
            lines: args.lines,
            newestFirst: args.newestFirst,
            ...window,
            ...next,
          },
          { label: newestFirst ? say.t('logs-more-earlier') : say.t('logs-more-later') },
        ),
      );
    }
    const count =
      lines.length <= shown.length
        ? say.t('logs-footer-lines', lines.length)
        : args.newestFirst
          ? say.t('logs-footer-first-shown', lines.length, shown.length)
          : say.t('logs-footer-last-shown', lines.length, shown.length);
    return withWarnings(
      {
        title: say.t('logs-title', args.job, args.tool),
        ...(toFiles ? { text: toFiles } : {}),
        code: { text: shown.join('\n') },
        status: 'info',
        actions,
        footer: `${count} · ${more ? say.t('logs-more-available') : say.t('logs-no-more-lines')}`,
        ...(lines.length > shown.length
          ? { attachments: [{ filename: `${args.tool}-${args.job}.log`, content: `${lines.join('\n')}\n` }] }
          : {}),
      },
      client,
    );
  },
});
