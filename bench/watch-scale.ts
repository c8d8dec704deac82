/**
 * Benchmark 4 — watch scale. N concurrent deployment watches (5,000; quick: 200) on the counting
 * sandbox with a sped-up lifecycle, followed by ONE worker process (the real core's BullMQ workers;
 * bench/watch-worker.ts). Deployments are started over a few seconds, each followed by a durable watch
 * with a card. Reported:
 * - upstream polls per watch against the minimum the poll schedule needs to see each deployment end
 *   (the polls an ideal poller on the same schedule, with zero processing time, would make);
 * - Redis memory per watch (`used_memory` with all watches queued, minus before);
 * - CPU seconds of the worker per 1,000 watches (user + system, /proc, = `process.cpuUsage()`);
 * - Redis commands (INFO commandstats, in scripts included) per watch from its start to its end, and
 *   per poll;
 * - time from a status change in the emulator to the card edit that shows it (p95), against the
 *   same figure for the ideal poller.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { pollDelayMs } from '../src/core/poll-schedule';
import { closeQueues, openQueues } from '../src/queue/queues';
import { QueueWatchService } from '../src/queue/watch-service';
import { commandsBetween, serverCommandStats } from '../test/support/redis-calls';
import type { BenchContext, Benchmark } from './lib/context';
import { type StatusChange, startCountingSandbox } from './lib/counting-sandbox';
import { spawnTs } from './lib/processes';
import { type BenchResult, compareFigure, infoFigure, ratioFigure } from './lib/results';
import { maxOf, percentile, round, sleep, until } from './lib/stats';

const BASE_POLL_MS = 1000;
const MAX_POLL_MS = 15_000;

/** Times (ms after the watch started) of the polls of the schedule, up to `horizonMs`. */
function scheduleTimes(horizonMs: number): number[] {
  const times = [0];
  for (let attempt = 0; (times.at(-1) as number) < horizonMs; attempt++) {
    times.push((times.at(-1) as number) + pollDelayMs(attempt, BASE_POLL_MS, MAX_POLL_MS));
  }
  return times;
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN);
}

async function runWatchScale(ctx: BenchContext): Promise<BenchResult> {
  const started = Date.now();
  const count = ctx.quick ? 200 : 5000;
  // Full run: deployments take 90 s (3 steps of 30 s) and start over a minute, so all 5,000 watches
  // are running at once for half a minute and the schedule's quick first polls overlap with the ramp.
  const stepMs = ctx.quick ? 1000 : 30_000;
  const spreadMs = ctx.quick ? 1000 : 60_000;
  const tools = Array.from({ length: count }, (_, i) => `bw${String(i).padStart(5, '0')}`);
  const sandbox = await startCountingSandbox({ tools, stepMs });
  const prefix = 'bench-watch:';
  const redis = new Redis(ctx.redisUrl, { maxRetriesPerRequest: null });
  await redis.flushall();
  const queues = openQueues(redis, prefix);
  const watches = new QueueWatchService(queues, redis, prefix);
  const tokensFile = join(ctx.dir, 'tokens.txt');
  writeFileSync(tokensFile, [...sandbox.tokens].map(([t, token]) => `${t}=${token}`).join('\n'));
  const recordFile = join(ctx.dir, 'edits.json');
  const worker = spawnTs('bench/watch-worker.ts', {
    env: {
      REDIS_URL: ctx.redisUrl,
      REDIS_KEY_PREFIX: prefix,
      TOOLHOST_URL: sandbox.externalUrl,
      TOKENS_FILE: tokensFile,
      RECORD_FILE: recordFile,
      WATCH_POLL_MS: String(BASE_POLL_MS),
      LOG_LEVEL: 'warn',
      DATA_DIR: ctx.dir,
    },
    ...(ctx.profileDir ? { cpuProfDir: join(ctx.profileDir, 'watch-worker') } : {}),
  });
  const notes: string[] = [];
  try {
    await worker.waitForLine('ready', 60_000);
    await sleep(500);
    const memoryBefore = await usedMemory(redis);
    const statsBefore = await serverCommandStats(redis);
    const cpuBefore = worker.cpuSeconds();
    const startedAt = new Map<string, number>();
    ctx.log(`watch: starting ${count} deployments and watches over ${spreadMs / 1000} s (step ${stepMs} ms)`);
    const t0 = Date.now();
    let next = 0;
    const startOne = async (tool: string) => {
      const token = sandbox.tokens.get(tool) as string;
      const response = await fetch(
        `${sandbox.externalUrl}/components/v1/tool/${tool}/deployment?token=${token}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        },
      );
      const body = (await response.json()) as { data?: { deploy_id?: string } };
      const id = body.data?.deploy_id;
      if (!id) throw new Error(`could not start a deployment of ${tool}: ${JSON.stringify(body)}`);
      sandbox.track(tool, id);
      startedAt.set(id, Date.now());
      await watches.start({
        kind: 'deployment',
        tool,
        id,
        // Each card in a channel of its own, as 5,000 tools' cards would be: Deckhand paces the edits
        // of one channel to Slack's limits, so one channel for all would measure that pacing instead.
        handle: {
          platform: 'slack',
          conversationId: `slack:TBENCH:C${tool}`,
          ref: { channel: `C${tool}`, ts: id },
        },
      });
    };
    while (next < count) {
      const due = Math.min(count, Math.ceil(((Date.now() - t0 + 50) / spreadMs) * count));
      const batch = tools.slice(next, due);
      next = due;
      await Promise.all(batch.map(startOne));
      await sleep(50);
    }
    const memoryAll = await usedMemory(redis);
    let memoryPeak = memoryAll;
    const done = await until(
      async () => {
        memoryPeak = Math.max(memoryPeak, await usedMemory(redis));
        const counts = await queues.watch.getJobCounts('active', 'waiting', 'delayed', 'prioritized');
        return Object.values(counts).every((n) => n === 0);
      },
      (ctx.quick ? 60 : 400) * 1000,
      500,
    );
    const cpuSeconds = worker.cpuSeconds() - cpuBefore;
    // Every command Redis ran meanwhile (in scripts included), the benchmark's own INFO left out.
    const commands = commandsBetween(statsBefore, await serverCommandStats(redis), ['info']);
    const elapsed = (Date.now() - t0) / 1000;
    await worker.stop();
    if (!done)
      notes.push('the watches did not all finish within the time limit; figures cover what finished');

    const edits = JSON.parse(readFileSync(recordFile, 'utf8')) as [number, string, string][];
    const editsById = new Map<string, [number, string][]>();
    for (const [at, id, status] of edits) {
      const list = editsById.get(id) ?? [];
      list.push([at, status]);
      editsById.set(id, list);
    }
    let polls = 0;
    let minPolls = 0;
    const latencies: number[] = [];
    const pollWaits: number[] = [];
    const processing: number[] = [];
    let unfinished = 0;
    for (const [id, changes] of sandbox.changes) {
      const start = startedAt.get(id) as number;
      const end = changes.at(-1) as StatusChange;
      if (!['successful', 'failed', 'timed_out', 'cancelled'].includes(end.status)) {
        unfinished++;
        continue;
      }
      const times = scheduleTimes(end.at - start + MAX_POLL_MS);
      minPolls += times.findIndex((t) => t >= end.at - start) + 1;
      const pollTimes = sandbox.polls.get(id) ?? [];
      polls += pollTimes.length;
      const cardEdits = editsById.get(id) ?? [];
      for (const change of changes.slice(1)) {
        const edit = cardEdits.find(([at, status]) => at >= change.at && status === change.status);
        latencies.push(edit ? edit[0] - change.at : Number.POSITIVE_INFINITY);
        // The first poll after the change: the schedule's share of the latency; the rest is Deckhand's.
        const poll = pollTimes.find((t) => t >= change.at);
        if (poll !== undefined) {
          pollWaits.push(poll - change.at);
          if (edit) processing.push(edit[0] - poll);
        }
      }
    }
    if (unfinished > 0) notes.push(`${unfinished} deployments had not finished when the run ended`);
    const finished = count - unfinished;
    notes.push(
      `${count} watches in ${round(elapsed, 1)} s: ${polls} polls (schedule minimum ${minPolls}), ${edits.length} card edits; Redis ${round((memoryAll - memoryBefore) / 1024 / 1024, 1)} MiB with all watches queued (peak ${round((memoryPeak - memoryBefore) / 1024 / 1024, 1)} MiB); worker CPU ${round(cpuSeconds, 1)} s; Redis commands ${commands.total} (${Object.entries(
        commands.byName,
      )
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([name, n]) => `${name} ${n}`)
        .join(
          ', ',
        )}); change-to-edit p50 ${round(percentile(latencies, 50))} ms, p95 ${round(percentile(latencies, 95))} ms, max ${round(maxOf(latencies))} ms; of which waiting for the next poll p95 ${round(percentile(pollWaits, 95))} ms and poll-to-edit p95 ${round(percentile(processing, 95))} ms.`,
    );
    return {
      id: 'watch',
      title: '4. Watch scale',
      status: 'ran',
      figures: [
        ratioFigure(
          'upstream polls per watch',
          polls / finished,
          minPolls / finished,
          'schedule minimum',
          1.1,
        ),
        infoFigure('Redis memory per watch', (memoryAll - memoryBefore) / count / 1024, 'KiB'),
        infoFigure('worker CPU per 1,000 watches', (cpuSeconds / count) * 1000, 's'),
        infoFigure('Redis commands per watch, start to end', commands.total / count),
        infoFigure('Redis commands per poll, everything included', commands.total / Math.max(1, polls)),
        compareFigure(
          'status change → card edit p95',
          percentile(latencies, 95),
          percentile(pollWaits, 95),
          'next poll, zero processing',
          'ms',
        ),
        infoFigure('poll → card edit p95 (processing)', percentile(processing, 95), 'ms'),
      ],
      params: {
        watches: count,
        stepMs,
        spreadMs,
        basePollMs: BASE_POLL_MS,
        maxPollMs: MAX_POLL_MS,
        workers: 1,
      },
      notes,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await worker.stop();
    await closeQueues(queues);
    await redis.quit();
    await sandbox.close();
  }
}

/** The watch-scale benchmark. */
export const watchScaleBenchmark: Benchmark = { id: 'watch', title: '4. Watch scale', run: runWatchScale };
