/**
 * Idle memory of a deployed web process: `deckhand start --role web` (compiled dist/) with one chat
 * platform configured — Slack over HTTP (SLACK_BOT_TOKEN + SLACK_SIGNING_SECRET) against the fake
 * Slack of this process — and real services: the tool platform and the media host are
 * `deckhand sandbox` running as its own process (the way a deployment points at real endpoints), so no
 * emulator is loaded into Deckhand. Its VmRSS is read 10 s after `/readyz` first answers, in three
 * separate starts; the median is judged against the 100 MB target.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FakeSlack } from '../test/fakes/slack';
import { ensureBuilt } from '../test/support/build';
import { memoryOf } from '../test/support/process-memory';
import { freePort } from '../test/support/redis-server';
import { measureCatalogs } from './lib/catalog-cost';
import type { BenchContext, Benchmark } from './lib/context';
import { slackEnv } from './lib/deckhand-slack';
import { spawnDeckhand, waitForHttp } from './lib/processes';
import { type BenchResult, infoFigure, limitFigure } from './lib/results';
import { startSandboxProcess } from './lib/sandbox-process';
import { maxOf, percentile, round, sleep } from './lib/stats';

const MB = 1024 * 1024;
const RSS_LIMIT_MB = 100;
const TITLE = '7. Idle web process';

/** One start: VmRSS and VmHWM (MB) after `idleMs` of idling once ready. */
async function idleOnce(
  ctx: BenchContext,
  fake: FakeSlack,
  services: Record<string, string>,
  index: number,
  idleMs: number,
): Promise<{ rss: number; peak: number }> {
  const port = await freePort();
  const dataDir = join(ctx.dir, `web-${index}`);
  mkdirSync(dataDir, { recursive: true });
  const child = spawnDeckhand({
    role: 'web',
    env: {
      DECKHAND_RUN: 'dist',
      ...slackEnv(fake),
      ...services,
      REDIS_URL: ctx.redisUrl,
      REDIS_KEY_PREFIX: `bench-idle-${index}:`,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMINS: 'slack:UADMIN',
    },
  });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, 60_000, child);
    await sleep(idleMs);
    const memory = memoryOf(child.process.pid);
    if (!Number.isFinite(memory.rss)) throw new Error('no /proc: cannot read the process memory');
    return { rss: memory.rss / MB, peak: memory.peak / MB };
  } finally {
    await child.stop();
  }
}

async function runIdle(ctx: BenchContext): Promise<BenchResult> {
  const started = Date.now();
  ensureBuilt();
  const starts = ctx.quick ? 1 : 3;
  const idleMs = ctx.quick ? 1000 : 10_000;
  const fake = await FakeSlack.start();
  const sandbox = await startSandboxProcess(join(ctx.dir, 'sandbox'));
  try {
    const samples: { rss: number; peak: number }[] = [];
    for (let index = 0; index < starts; index++) {
      ctx.log(`idle: start ${index + 1}/${starts}, reading VmRSS ${idleMs / 1000} s after /readyz`);
      samples.push(await idleOnce(ctx, fake, sandbox.env, index, idleMs));
    }
    const rss = samples.map((s) => s.rss);
    ctx.log(`idle: message catalogs, ${starts} fresh processes`);
    const catalogs = await measureCatalogs(starts);
    const medianOf = (pick: (c: (typeof catalogs)[number]) => number) => percentile(catalogs.map(pick), 50);
    const sandboxRss = memoryOf(sandbox.child.process.pid).rss / MB;
    return {
      id: 'idle',
      title: TITLE,
      status: 'ran',
      figures: [
        limitFigure(
          'start --role web idle RSS, Slack HTTP, real services (median)',
          round(percentile(rss, 50), 1),
          RSS_LIMIT_MB,
          'MB',
        ),
        infoFigure(
          'start --role web peak RSS during start-up (max)',
          round(maxOf(samples.map((s) => s.peak)), 1),
          'MB',
        ),
        infoFigure('deckhand sandbox process RSS (not Deckhand)', round(sandboxRss, 1), 'MB'),
        limitFigure(
          'message catalogs: load, one message in each language (median)',
          round(
            medianOf((c) => c.loadMs),
            1,
          ),
          20,
          'ms',
        ),
        infoFigure(
          'message catalogs: English alone, before the first word (median)',
          round(
            medianOf((c) => c.englishMs),
            1,
          ),
          'ms',
        ),
        limitFigure(
          'message catalogs: RSS the load adds (median)',
          round(medianOf((c) => c.loadBytes) / MB, 1),
          5,
          'MB',
        ),
        infoFigure(
          'every message said once in every language: RSS added (median)',
          round(medianOf((c) => c.allBytes) / MB, 1),
          'MB',
        ),
      ],
      params: { starts, idleMs },
      notes: [
        `idle VmRSS of each start: ${rss.map((v) => round(v, 1)).join(', ')} MB; MB = MiB (2^20 bytes).`,
        `message catalogs (${catalogs[0]?.messages ?? 0} messages), load ms of each process: ${catalogs.map((c) => round(c.loadMs, 1)).join(', ')}; each language read from i18n/ on its first message, each message decoded on its first use; Intl formatters not counted.`,
      ],
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await sandbox.child.stop();
    await fake.close();
  }
}

/** The idle web-process memory benchmark. */
export const idleBenchmark: Benchmark = { id: 'idle', title: TITLE, run: runIdle };
