import { resolve } from 'node:path';
import type { Config } from '../config';
import { closeQueues, openQueues, QUEUE_NAMES } from '../queue/queues';
import { healthProblems, ToolhostClientFactory } from '../services/toolhost';
import { readSandboxNotes, readSandboxToolhost } from './sandbox-notes-store';

/**
 * The tool platform's health, one line per API (its health endpoint), for `deckhand status`: the
 * configured platform's, else that of the emulator of the running sandbox (`emulatorUrl`).
 */
export async function platformHealthLines(config: Config, emulatorUrl?: string): Promise<string> {
  const configured = Boolean(config.TOOLHOST_URL || config.TOOLHOST_INTERNAL_URL);
  if (!configured && !emulatorUrl) {
    return 'Tool platform: no TOOLHOST_URL or TOOLHOST_INTERNAL_URL set, and no sandbox Deckhand is running on this Redis.\n';
  }
  const name = configured ? 'Tool platform' : 'Tool platform (sandbox emulator)';
  const factory = ToolhostClientFactory.fromConfig(
    configured ? config : { ...config, TOOLHOST_URL: emulatorUrl },
  );
  try {
    const report = await factory.platformHealth();
    const problems = healthProblems(report);
    const lines = report.map(
      (h) => `  ${h.api.padEnd(11)}${h.status}${h.message && h.status !== 'OK' ? `  ${h.message}` : ''}`,
    );
    const head = problems.length ? `${name}: ${problems.length} API(s) not healthy` : `${name}: healthy`;
    return `${head}\n${lines.join('\n')}\n`;
  } finally {
    await factory.close();
  }
}

import { runningEmbeddedRedis } from '../store/embedded-redis';
import { connectRedis } from '../store/redis-connect';
import { type RedisTopology, redisTopology } from '../store/redis-topology';

/**
 * `deckhand status`: the queues (jobs by state) and the active watches, read from Redis — the same
 * view for every process sharing it — and the tool platform's health (each API's health endpoint).
 * Without `REDIS_URL` it reads the embedded Redis of the Deckhand running on this DATA_DIR (found
 * through its record, `src/store/embedded-redis.ts`).
 */
export async function runStatus(config: Config): Promise<number> {
  const configured = redisTopology(config);
  const embedded = runningEmbeddedRedis(resolve(config.DATA_DIR, 'redis'))?.url;
  const topology: RedisTopology | undefined =
    configured ?? (embedded ? { kind: 'node', url: embedded } : undefined);
  if (!topology) {
    process.stderr.write(
      `deckhand status: REDIS_URL is not set and no Deckhand with an embedded Redis is running on DATA_DIR (${resolve(config.DATA_DIR)}). Start Deckhand first (its embedded Redis lives while it runs), or set REDIS_URL to the Redis your Deckhand processes share.\n`,
    );
    return 2;
  }
  // The queues alone (not the whole app): status loads no emulator and no chat SDK.
  const connection = connectRedis(topology, {
    maxRetriesPerRequest: null,
    lazyConnect: true,
    retryStrategy: () => null,
  });
  let lastError: Error | undefined;
  connection.on('error', (error: Error) => {
    lastError = error; // reported below; status is short-lived and does not reconnect
  });
  try {
    await connection.connect();
  } catch (error) {
    process.stderr.write(
      `deckhand status cannot reach the Redis ${configured ? 'Deckhand is configured with' : 'embedded in the running Deckhand'} (${(lastError ?? (error as Error)).message}): check ${configured ? 'the REDIS_* settings and ' : ''}that Redis runs.\n`,
    );
    return 1;
  }
  const app = { queues: openQueues(connection, config.REDIS_KEY_PREFIX) };
  try {
    const out = process.stdout;
    // Columns as wide as the longest queue name and the largest count.
    const rows: [string, number[]][] = [];
    for (const name of QUEUE_NAMES) {
      const c = await app.queues[name].getJobCounts('waiting', 'active', 'delayed', 'failed');
      rows.push([name, [c.waiting, c.active, c.delayed, c.failed].map((n) => n ?? 0)]);
    }
    const heads = ['WAITING', 'ACTIVE', 'DELAYED', 'FAILED'];
    const first = Math.max('QUEUE'.length, ...rows.map(([name]) => name.length)) + 2;
    const widths = heads.map((head, i) => Math.max(head.length, ...rows.map(([, n]) => String(n[i]).length)));
    const line = (label: string, cells: string[]) =>
      `${label.padEnd(first)}${cells.map((cell, i) => cell.padStart(widths[i] as number)).join('  ')}\n`;
    out.write(line('QUEUE', heads));
    for (const [name, counts] of rows) out.write(line(name, counts.map(String)));
    const watches = await app.queues.watch.getJobs(['active', 'waiting', 'delayed'], 0, 200);
    out.write(`\nActive watches: ${watches.length}\n`);
    for (const job of watches) {
      const d = job.data as { kind: string; tool: string; id: string; lastState?: string; startedAt: number };
      const minutes = Math.round((Date.now() - d.startedAt) / 60_000);
      out.write(
        `  ${d.kind.padEnd(10)} ${d.tool.padEnd(16)} ${d.id}  ${d.lastState ?? 'not polled yet'}  (${minutes} min)\n`,
      );
    }
    const schedulers = await app.queues.discover.getJobSchedulers();
    out.write(
      `\nDiscovery: ${schedulers.length} subscribed tool(s)${schedulers.length ? `: ${schedulers.map((s) => s.key.replace(/^discover\|/, '')).join(', ')}` : ''}\n`,
    );
    // A running sandbox's notes: its media host's address (an OS-chosen port) and its time scale.
    const notes = await readSandboxNotes(connection, config.REDIS_KEY_PREFIX);
    if (notes.length > 0) out.write(`\n${notes.join('\n')}\n`);
    const emulator = await readSandboxToolhost(connection, config.REDIS_KEY_PREFIX);
    out.write(`\n${await platformHealthLines(config, emulator)}`);
    return 0;
  } finally {
    await closeQueues(app.queues);
    connection.disconnect();
  }
}
