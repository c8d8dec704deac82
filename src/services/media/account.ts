/** The account: information, daily statistics and the copyright-report (DMCA) list. */
import { z } from 'zod';
import {
  type AccountInfo,
  AccountInfoSchema,
  type DailyStats,
  DailyStatsSchema,
  type DmcaReport,
  DmcaReportSchema,
} from './schemas';
import { type MediaSession, parseResult } from './session';

/** Which days `stats` covers: the last N days, or a date range (`YYYY-MM-DD`). */
export type StatsRange = { lastDays: number } | { from: string; to: string } | Record<string, never>;

/** `account/info`, `account/stats`, `dmca/list`. */
export class AccountApi {
  constructor(private readonly session: MediaSession) {}

  /** E-mail, balance, storage used and left, premium expiry. */
  info(): Promise<AccountInfo> {
    return this.session.call({
      path: '/api/account/info',
      what: 'media-api-call-account-info',
      read: (e) => parseResult(AccountInfoSchema, e.result, 'media-api-call-account-info'),
    });
  }

  /** Daily views, downloads and earnings (the host's default: the last 7 days). */
  stats(range: StatsRange = {}): Promise<DailyStats[]> {
    const query =
      'lastDays' in range
        ? { last: range.lastDays }
        : 'from' in range
          ? { from_date: range.from, to_date: range.to }
          : {};
    return this.session.call({
      path: '/api/account/stats',
      query,
      what: 'media-api-call-account-stats',
      read: (e) => parseResult(z.array(DailyStatsSchema), e.result ?? [], 'media-api-call-account-stats'),
    });
  }

  /** Files disabled after a copyright report, one page (the host's default page size is 500). */
  dmca(options: { page?: number; perPage?: number } = {}): Promise<DmcaReport[]> {
    return this.session.call({
      path: '/api/dmca/list',
      query: { page: options.page, per_page: options.perPage },
      what: 'media-api-call-dmca-list',
      read: (e) => parseResult(z.array(DmcaReportSchema), e.result ?? [], 'media-api-call-dmca-list'),
    });
  }
}
