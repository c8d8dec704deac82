/** The media account: `/media account`, `/media stats`, `/media dmca`. */
import { z } from 'zod';
import { actionTo } from '../../src/core/action-ref';
import { UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import type { DailyStats } from '../../src/services/media';
import { table } from '../format';
import { command } from './context';
import { formatBytes } from './format';

/** `/media account`. */
export const mediaAccountCommand = command({
  name: 'media account',
  permission: 'write',
  sideEffect: false,
  async run({ services, invocation }) {
    const client = await services.media.forUser(invocation.user);
    const info = await client.account.info();
    return {
      title: 'Media account',
      status: 'info',
      fields: [
        { label: 'E-mail', value: info.email, inline: true },
        { label: 'Balance', value: `$${info.balance.toFixed(5)}`, inline: true },
        { label: 'Storage used', value: formatBytes(info.storageUsed), inline: true },
        { label: 'Storage left', value: formatBytes(info.storageLeft), inline: true },
        {
          label: 'Premium until',
          value: info.premiumExpire ? `${info.premiumExpire} UTC` : 'no premium',
          inline: true,
        },
      ],
    };
  },
});

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-11-01')
  .refine((s) => {
    const at = Date.parse(`${s}T00:00:00Z`);
    return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === s;
  }, 'is not a real date');

/** Width of the longest bar of the text chart. */
const BAR = 24;

/** A bar chart of the views per day in text (renders the same on every platform). */
export function viewsChart(days: readonly DailyStats[]): string {
  const most = Math.max(1, ...days.map((d) => d.views));
  return days
    .map((d) => {
      const width = Math.round((d.views / most) * BAR);
      return `${d.day.slice(5)} ${'█'.repeat(width)}${width === 0 && d.views > 0 ? '▏' : ''} ${d.views}`;
    })
    .join('\n');
}

/** Pixel size of the `/media stats` chart. */
export const STATS_CHART = { width: 800, height: 400 } as const;

/** `/media stats [--days N | --from DATE --to DATE]`: totals, a chart picture and the table. */
export const mediaStatsCommand = command({
  name: 'media stats',
  args: z.object({
    days: z.number().int().min(1).max(365).optional().describe('opt-days'),
    from: day.optional().describe('opt-from-media-stats'),
    to: day.optional().describe('opt-to-media-stats'),
  }),
  examples: ['/media stats', '/media stats --days 30', '/media stats --from 2026-11-01 --to 2026-11-15'],
  permission: 'read',
  async run({ args, services, invocation }) {
    if (args.days !== undefined && (args.from || args.to)) {
      throw new UsageError('Give either --days or --from and --to, not both.');
    }
    if (Boolean(args.from) !== Boolean(args.to)) throw new UsageError('--from and --to go together.');
    if (args.from && args.to && args.from > args.to) throw new UsageError('--from must not be after --to.');
    if (args.from && args.to && (Date.parse(args.to) - Date.parse(args.from)) / 86_400_000 >= 365) {
      throw new UsageError('A range covers at most 365 days.');
    }
    const client = await services.media.forUser(invocation.user);
    const days = await client.account.stats(
      args.from && args.to
        ? { from: args.from, to: args.to }
        : args.days !== undefined
          ? { lastDays: args.days }
          : {},
    );
    if (days.length === 0) return { text: 'No statistics for those days.', status: 'info' };
    const total = days.reduce(
      (sum, d) => ({
        views: sum.views + d.views,
        downloads: sum.downloads + d.downloads,
        profit: sum.profit + d.profitTotal,
      }),
      { views: 0, downloads: 0, profit: 0 },
    );
    const rows = days.map((d) => [d.day, String(d.views), String(d.downloads), d.profitTotal.toFixed(5)]);
    const range = `${days[0]?.day} – ${days.at(-1)?.day}`;
    // ECharts and resvg are loaded when a chart is drawn, not by every process that serves commands.
    const { chartImage } = await import('../charts');
    const image = chartImage(
      {
        title: `Views and downloads per day, ${range}`,
        categories: days.map((d) => d.day.slice(5)),
        series: [
          { name: 'Views', values: days.map((d) => d.views) },
          { name: 'Downloads', values: days.map((d) => d.downloads) },
        ],
        width: STATS_CHART.width,
        height: STATS_CHART.height,
      },
      {
        filename: 'media-stats.png',
        alt: `Bar chart of views and downloads per day, ${range}: ${total.views} views, ${total.downloads} downloads in all.`,
        fallback: viewsChart(days),
      },
    );
    return {
      title: `Media stats ${range}`,
      image,
      status: 'info',
      fields: [
        { label: 'Views', value: String(total.views), inline: true },
        { label: 'Downloads', value: String(total.downloads), inline: true },
        { label: 'Earnings', value: `$${total.profit.toFixed(5)}`, inline: true },
      ],
      code: { text: table([['DAY', 'VIEWS', 'DOWNLOADS', 'EARNINGS'], ...rows]) },
    };
  },
});

/** `/media dmca [--page N]`. */
export const mediaDmcaCommand = command({
  name: 'media dmca',
  args: z.object({ page: z.number().int().min(1).max(100_000).default(1).describe('opt-page-media-list') }),
  permission: 'read',
  async run({ args, services, invocation }): Promise<DraftCard> {
    const client = await services.media.forUser(invocation.user);
    const reports = await client.account.dmca({ page: args.page, perPage: 50 });
    if (reports.length === 0) {
      return {
        text: args.page > 1 ? `There is no page ${args.page}.` : 'No file has a copyright report.',
        status: 'success',
      };
    }
    return {
      title: 'Files disabled after a copyright report',
      status: 'warning',
      code: {
        text: table([
          ['CODE', 'FOLDER', 'REPORTED', 'DISABLED'],
          ...reports.map((r) => [r.fileCode, r.folderId, r.reportedOn, r.disabledOn]),
        ]),
      },
      footer: `page ${args.page}`,
      ...(reports.length === 50
        ? { actions: [actionTo(mediaDmcaCommand, { page: args.page + 1 }, { label: 'Next page' })] }
        : {}),
    };
  },
});
