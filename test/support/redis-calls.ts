import { Redis } from 'ioredis';

/** Redis traffic of the connections to one port, as the clients sent it. */
export interface CallCounts {
  /**
   * Requests: the commands one connection sends in one turn of the event loop travel together and
   * are answered together — one round trip, whether they were a pipeline, a MULTI or separate calls.
   */
  calls: number;
  /** Commands sent (a pipeline counts each of its commands); scripts count once here. */
  sent: number;
  /** Commands sent by name (lower case). */
  byName: Record<string, number>;
}

type SendCommand = (
  this: Redis,
  command: { name: string; promise: Promise<unknown> },
  _stream?: object,
) => unknown;

/** Commands that wait for something to happen: not "in flight" while they wait. */
const BLOCKING = new Set(['bzpopmin', 'bzpopmax', 'brpoplpush', 'blmove', 'blpop', 'brpop', 'xread']);

/**
 * Counts, in this process, every command any ioredis client sends (BullMQ's connections included),
 * by the port it is connected to — so a web and a worker that reach Redis through different relays
 * are counted apart. `stop()` restores ioredis.
 */
export function countRedisCalls(): {
  of(port: number): CallCounts;
  /** Commands sent on the port and not answered yet, blocking waits left out. */
  pending(port: number): number;
  stop(): void;
} {
  const prototype = Redis.prototype as unknown as { sendCommand: SendCommand };
  const original = prototype.sendCommand;
  const counts = new Map<number, CallCounts>();
  // Connections that already sent something in this turn of the event loop.
  const sending = new Set<Redis>();
  const inFlight = new Map<number, number>();
  const of = (port: number): CallCounts => {
    let found = counts.get(port);
    if (!found) {
      found = { calls: 0, sent: 0, byName: {} };
      counts.set(port, found);
    }
    return found;
  };
  prototype.sendCommand = function (this: Redis, ...args: Parameters<SendCommand>) {
    const [command] = args;
    const port = Number(this.options.port);
    const count = of(port);
    if (!BLOCKING.has(command.name)) {
      inFlight.set(port, (inFlight.get(port) ?? 0) + 1);
      const settled = () => inFlight.set(port, (inFlight.get(port) ?? 1) - 1);
      command.promise.then(settled, settled);
    }
    count.sent += 1;
    count.byName[command.name] = (count.byName[command.name] ?? 0) + 1;
    if (!sending.has(this)) {
      sending.add(this);
      count.calls += 1;
      setImmediate(() => sending.delete(this));
    }
    return original.apply(this, args);
  };
  return {
    of: (port) => {
      const count = of(port);
      return { ...count, byName: { ...count.byName } };
    },
    pending: (port) => inFlight.get(port) ?? 0,
    stop() {
      prototype.sendCommand = original;
    },
  };
}

/** Commands Redis ran so far (INFO commandstats, commands inside scripts included), by name. */
export async function serverCommandStats(redis: Redis): Promise<Record<string, number>> {
  const info = await redis.info('commandstats');
  const stats: Record<string, number> = {};
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    stats[match[1] as string] = Number(match[2]);
  }
  return stats;
}

/** Commands run between two {@link serverCommandStats} snapshots, leaving out `ignore`d names. */
export function commandsBetween(
  before: Record<string, number>,
  after: Record<string, number>,
  ignore: readonly string[] = ['info'],
): { total: number; byName: Record<string, number> } {
  const byName: Record<string, number> = {};
  let total = 0;
  for (const [name, calls] of Object.entries(after)) {
    if (ignore.includes(name)) continue;
    const delta = calls - (before[name] ?? 0);
    if (delta > 0) {
      byName[name] = delta;
      total += delta;
    }
  }
  return { total, byName };
}
