/**
 * The Server Admin Log, wired: the per-tool settings and the change pages in Redis, the bridge from
 * stored change records to `!log` lines, and the place a chat link that carries them attaches its
 * outbox ({@link AdminLogLink.attach}); until one is attached, lines are logged as not sent.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { salBridge } from '../../commands/toolhost/sal/bridge';
import type { AdminLogService } from '../../commands/toolhost/sal/service';
import type { Config } from '../config';
import type { AdminLogOutbox } from '../core/admin-log-outbox';
import type { ChangeRecord } from '../core/change-record';
import type { AdminLogLink, RouteRegistrar } from '../core/host';
import { AdminLogStore } from '../store/admin-log';
import { CHANGE_PAGE_PATH, mountChangePages } from '../web/change-page';

/** The Server Admin Log's parts. */
export interface AdminLog {
  service: AdminLogService;
  link: AdminLogLink;
  /** The audit trail's hook: each stored change record, never awaited. */
  onChange(record: ChangeRecord): void;
  /** Mounts the change pages SAL lines link to. */
  mount(web: RouteRegistrar): void;
}

/** Builds the Server Admin Log; `publicUrl` is read when a line is made (it is known once listening). */
export function createAdminLog(options: {
  config: Config;
  logger: Logger;
  redis: Redis;
  prefix: string;
  publicUrl: () => string;
}): AdminLog {
  const store = new AdminLogStore(options.redis, options.prefix);
  const service: AdminLogService = {
    channel: options.config.SAL_CHANNEL,
    defaultOn: options.config.SAL_DEFAULT === 'on',
    setting: (tool) => store.setting(tool),
    set: (tool, on) => store.set(tool, on),
  };
  let outbox: AdminLogOutbox | undefined;
  const onChange = salBridge({
    service,
    outbox: () => outbox,
    keep: (record) => store.keep(record),
    link: (id) => `${options.publicUrl().replace(/\/+$/, '')}${CHANGE_PAGE_PATH}${id}`,
    logger: options.logger,
  });
  return {
    service,
    link: {
      attach(next) {
        outbox = next;
      },
    },
    onChange,
    mount: (web) => mountChangePages(web, store),
  };
}
