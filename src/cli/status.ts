import type { Config } from '../config';
import { createLogger } from '../log';
import { createApp } from '../wiring';

/**
 * `deckhand status`: the queues (jobs by state) and the active watches, read from Redis — the same
 * view for every process sharing it.
 */
export async function runStatus(config: Config): Promise<number> {
  if (!config.REDIS_URL) {
    process.stderr.write(
      'deckhand status reads a shared Redis: set REDIS_URL to the one your Deckhand processes use.\n',
    );
    return 2;
  }
  const logger = createLogger({ level: 'warn' });
  const app = await createApp({ config, logger, sandbox: false });
  try {
    const out = process.stdout;
    out.write('QUEUE      WAITING  ACTIVE  DELAYED  FAILED\n');
    for (const [name, queue] of Object.entries(app.queues)) {
      const c = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
      const cells = [c.waiting, c.active, c.delayed, c.failed].map((n) => String(n ?? 0).padStart(7));
      out.write(`${name.padEnd(9)}${cells.join(' ')}\n`);
    }
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
    return 0;
  } finally {
    await app.close();
  }
}
