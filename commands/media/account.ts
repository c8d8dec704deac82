/** The media account: `/media account`, `/media stats`, `/media dmca`. */
import { z } from 'zod';
import { actionTo } from '../../src/core/action-ref';
import { UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import { t, translator } from '../../src/i18n/translate';
import type { DailyStats } from '../../src/services/media';
import { table } from '../format';
import { command } from './context';
import { formatBytes } from './format';

/** `/media account`. */
export const mediaAccountCommand = command({
  name: 'media account',
  permission: 'write',
  sideEffect: false,
  async run({ services, invocation, say = translator('en') }) {
    const client = await services.media.forUser(invocation.user);
    const info = await client.account.info();
    return {
      title: say.t('media-account-title'),
      status: 'info',
      fields: [
        { label: say.t('media-account-email'), value: info.email, inline: true },
        { label: say.t('media-account-balance'), value: `$${info.balance.toFixed(5)}`, inline: true },
        {
          label: say.t('media-account-storage-used'),
          value: formatBytes(info.storageUsed, say),
          inline: true,
        },
        {
          label: say.t('media-account-storage-left'),
          value: formatBytes(info.storageLeft, say),
          inline: true,
        },
        {
          label: say.t('media-account-premium-until'),
          value: info.premiumExpire ? `${info.premiumExpire} UTC` : say.t('media-account-no-premium'),
          inline: true,
        },
      ],
    };
  },
});

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, t('en', 'media-stats-day-form'))
  .refine(
    (s) => {
      const at = Date.parse(`${s}T00:00:00Z`);
      return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === s;
    },
    t('en', 'media-stats-day-unreal'),
  );

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
  async run({ args, services, invocation, say = translator('en') }) {
    if (args.days !== undefined && (args.from || args.to)) {
      throw UsageError.inWords((say) => ({ message: say.t('media-stats-days-or-range') }));
    }
    if (Boolean(args.from) !== Boolean(args.to))
      throw UsageError.inWords((say) => ({ message: say.t('media-stats-range-pair') }));
    if (args.from && args.to && args.from > args.to)
      throw UsageError.inWords((say) => ({ message: say.t('media-stats-range-order') }));
    if (args.from && args.to && (Date.parse(args.to) - Date.parse(args.from)) / 86_400_000 >= 365) {
      throw UsageError.inWords((say) => ({ message: say.t('media-stats-range-too-long', 365) }));
    }
    const client = await services.media.forUser(invocation.user);
    const days = await client.account.stats(
      args.from && args.to
        ? { from: args.from, to: args.to }
        : args.days !== undefined
          ? { lastDays: args.days }
          : {},
    );
    if (days.length === 0) return { text: say.t('media-stats-none'), status: 'info' };
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
        title: say.t('media-stats-chart-title', range),
        categories: days.map((d) => d.day.slice(5)),
        series: [
          { name: say.t('media-stats-views'), values: days.map((d) => d.views) },
          { name: say.t('media-stats-downloads'), values: days.map((d) => d.downloads) },
        ],
        width: STATS_CHART.width,
        height: STATS_CHART.height,
      },
      {
        filename: 'media-stats.png',
        alt: say.t(
          'media-stats-chart-alt',
          range,
          total.views,
          say.number(total.views),
          total.downloads,
          say.number(total.downloads),
        ),
        fallback: viewsChart(days),
      },
    );
    return {
      title: say.t('media-stats-title', range),
      image,
      status: 'info',
      fields: [
        { label: say.t('media-stats-views'), value: say.number(total.views), inline: true },
        { label: say.t('media-stats-downloads'), value: say.number(total.downloads), inline: true },
        { label: say.t('media-stats-earnings'), value: `$${total.profit.toFixed(5)}`, inline: true },
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
  async run({ args, services, invocation, say = translator('en') }): Promise<DraftCard> {
    const client = await services.media.forUser(invocation.user);
    const reports = await client.account.dmca({ page: args.page, perPage: 50 });
    if (reports.length === 0) {
      return {
        text: args.page > 1 ? say.t('media-no-page', say.number(args.page)) : say.t('media-dmca-none'),
        status: 'success',
      };
    }
    return {
      title: say.t('media-dmca-title'),
      status: 'warning',
      code: {
        text: table([
          ['CODE', 'FOLDER', 'REPORTED', 'DISABLED'],
          ...reports.map((r) => [r.fileCode, r.folderId, r.reportedOn, r.disabledOn]),
        ]),
      },
      footer: say.t('media-page', say.number(args.page)),
      ...(reports.length === 50
        ? {
            actions: [
              actionTo(mediaDmcaCommand, { page: args.page + 1 }, { label: say.t('media-next-page') }),
            ],
          }
        : {}),
    };
  },
});
