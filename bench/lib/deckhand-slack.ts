/**
 * A real Deckhand (`deckhand start`, its own process) serving Slack over HTTP against a fake Slack in
 * this process, with the toolhost sandbox of this process as its platform (certificates written to a
 * scratch directory) — the set-up of the ack and log-tail benchmarks.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { type FakeSlack, SlackDriver } from '../../test/fakes/slack';
import { freePort } from '../../test/support/redis-server';
import { sandboxEnv } from '../../test/support/worker-process';
import type { BenchContext } from './context';
import { BENCH_METRICS_TOKEN } from './memory-breakdown';
import { type Child, spawnDeckhand, waitForHttp } from './processes';

/** The signing secret of the benchmark app. */
export const BENCH_SIGNING_SECRET = 'bench-signing-secret-0123456789';

/** A running Deckhand on Slack. */
export interface SlackDeckhand {
  child: Child;
  port: number;
  /** Sends signed commands and clicks as Slack would. */
  driver: SlackDriver;
}

/** The Slack settings of a bot on `fake`. */
export function slackEnv(fake: FakeSlack): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: fake.options.botToken,
    SLACK_SIGNING_SECRET: BENCH_SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
  };
}

/** Starts Deckhand and waits until `/readyz` answers. */
export async function startSlackDeckhand(
  ctx: BenchContext,
  fake: FakeSlack,
  sandbox: ToolhostSandbox,
  name: string,
  env: Record<string, string> = {},
  role: 'web' | 'worker' | 'all' = 'all',
): Promise<SlackDeckhand> {
  const port = await freePort();
  const dataDir = join(ctx.dir, name);
  mkdirSync(dataDir, { recursive: true });
  const child = spawnDeckhand({
    env: {
      ...slackEnv(fake),
      ...sandboxEnv(sandbox),
      REDIS_URL: ctx.redisUrl,
      REDIS_KEY_PREFIX: `bench-${name}:`,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      LOG_FILE: join(dataDir, 'deckhand.log'),
      ADMINS: 'slack:UADMIN',
      METRICS_TOKEN: BENCH_METRICS_TOKEN,
      ...env,
    },
    ...(ctx.profileDir ? { cpuProfDir: join(ctx.profileDir, name) } : {}),
    role,
  });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, 60_000, child);
  } catch (error) {
    await child.stop();
    throw error;
  }
  const driver = new SlackDriver(fake, {
    kind: 'http',
    url: `http://127.0.0.1:${port}/slack/events`,
    signingSecret: BENCH_SIGNING_SECRET,
  });
  return { child, port, driver };
}
