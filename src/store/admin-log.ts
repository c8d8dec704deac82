/**
 * The Server Admin Log's state in Redis: each tool's setting (`/tool sal <tool> on|off`, one hash) and
 * the changes written to a SAL, kept for {@link CHANGE_PAGE_DAYS} days so the link a SAL line carries
 * (`/changes/<id>`) shows what was done.
 */
import type { Redis } from 'ioredis';
import type { ChangeRecord } from '../core/change-record';

/** How long a logged change's page is kept (the retention of Wikimedia's own chat precedent). */
export const CHANGE_PAGE_DAYS = 90;

/** Per-tool SAL settings and the pages of logged changes. */
export class AdminLogStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'dh:',
  ) {}

  /** `tool`'s own setting: on, off, or undefined when it follows the default. */
  async setting(tool: string): Promise<boolean | undefined> {
    const value = await this.redis.hget(`${this.prefix}sal:tools`, tool);
    return value === null ? undefined : value === '1';
  }

  /** Turns `tool`'s SAL on or off; resolves with its setting before. */
  async set(tool: string, on: boolean): Promise<boolean | undefined> {
    const before = await this.redis.hget(`${this.prefix}sal:tools`, tool);
    await this.redis.hset(`${this.prefix}sal:tools`, tool, on ? '1' : '0');
    return before === null ? undefined : before === '1';
  }

  /** Keeps `record` for its page (the first copy of an id stays). */
  async keep(record: ChangeRecord): Promise<void> {
    const ttl = CHANGE_PAGE_DAYS * 86_400;
    await this.redis.set(this.changeKey(record.id), JSON.stringify(record), 'EX', ttl, 'NX');
  }

  /** The logged change `id`, if it is still kept. */
  async change(id: string): Promise<ChangeRecord | undefined> {
    const raw = await this.redis.get(this.changeKey(id));
    if (!raw) return undefined;
    try {
      return JSON.parse(raw) as ChangeRecord;
    } catch {
      return undefined;
    }
  }

  private changeKey(id: string): string {
    return `${this.prefix}sal:change:${id}`;
  }
}
