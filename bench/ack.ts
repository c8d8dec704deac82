/**
 * Benchmark 1 — ack latency. Signed Slack slash commands (`/deploy mytool`) at a steady rate against
 * Deckhand's HTTP endpoint (`deckhand start`, its own process, Slack adapter over HTTP on the fake
 * Slack, the toolhost sandbox in this process), versus a bare Bolt app that only acks (its own
 * process, same fake, same load). Latencies are taken per request (sub-millisecond, from autocannon's
 * response events); the result is the p99 ratio, and no request may take longer than Slack's 3 s.
 */
import autocannon from 'autocannon';
import { startToolhostSandbox } from '../src/sandbox/toolhost';
import { FakeSlack } from '../test/fakes/slack';
import { freePort } from '../test/support/redis-server';
import type { BenchContext, Benchmark } from './lib/context';
import { BENCH_SIGNING_SECRET, slackEnv, startSlackDeckhand } from './lib/deckhand-slack';
import { type Child, spawnTs } from './lib/processes';
import { type BenchResult, compareFigure, infoFigure, limitFigure, ratioFigure } from './lib/results';
import { signedCommand } from './lib/slack-command';
import { maxOf, percentile, round, sleep, until } from './lib/stats';

const SLACK_DEADLINE_MS = 3000;
/** Requests per second of each load connection. */
const CONNECTION_RATE = 4;

/** Latencies (ms) and counts of one load run. */
interface LoadRun {
  latencies: number[];
  non2xx: number;
  errors: number;
  timeouts: number;
  sent: number;
  achievedRate: number;
}

async function load(
  url: string,
  fake: FakeSlack,
  rate: number,
  seconds: number,
  record: boolean,
): Promise<LoadRun> {
  const latencies: number[] = [];
  const place = {
    teamId: fake.options.teamId,
    channel: 'C0BENCH01',
    userId: 'UADMIN',
    userName: 'ada',
    responseBase: `${fake.url}/response/`,
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        method: 'POST',
        // A steady load: each connection sends CONNECTION_RATE requests a second (an overall rate
        // would fire each second's quota in one burst). The achieved rate is reported.
        connections: Math.max(1, Math.round(rate / CONNECTION_RATE)),
        connectionRate: CONNECTION_RATE,
        duration: seconds,
        timeout: 10,
        requests: [
          {
            setupRequest: (request: autocannon.Request) => {
              const { body, headers } = signedCommand(BENCH_SIGNING_SECRET, place, '/deploy mytool');
              return { ...request, method: 'POST', path: '/slack/events', body, headers };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
      if (record) latencies.push(ms);
    });
  });
  return {
    latencies,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    sent: result.requests.total,
    achievedRate: result.requests.total / seconds,
  };
}

async function measure(
  name: string,
  url: string,
  fake: FakeSlack,
  rate: number,
  seconds: number,
  ctx: BenchContext,
): Promise<LoadRun & { warmUp: number }> {
  ctx.log(`ack: warming up ${name}`);
  const warm = await load(url, fake, rate, ctx.quick ? 1 : 2, false);
  await sleep(ctx.quick ? 100 : 500);
  ctx.log(`ack: ${rate} req/s for ${seconds} s against ${name}`);
  return { ...(await load(url, fake, rate, seconds, true)), warmUp: warm.sent };
}

function summary(name: string, run: LoadRun): string {
  return `${name}: ${run.sent} requests (${round(run.achievedRate, 1)}/s), p50 ${round(percentile(run.latencies, 50))} ms, p99 ${round(percentile(run.latencies, 99))} ms, max ${round(maxOf(run.latencies))} ms, non-2xx ${run.non2xx}, errors ${run.errors}, timeouts ${run.timeouts}`;
}

async function runAck(ctx: BenchContext): Promise<BenchResult> {
  const started = Date.now();
  const rate = ctx.quick ? 50 : 200;
  const seconds = ctx.quick ? 2 : 20;
  const sandbox = await startToolhostSandbox({ stepMs: 1500 });
  const fake = await FakeSlack.start();
  const children: Child[] = [];
  const notes: string[] = [];
  // Quick mode only checks that this runs: Deckhand may start while the baseline is measured.
  const early = ctx.quick ? startSlackDeckhand(ctx, fake, sandbox, 'ack') : undefined;
  early?.catch(() => undefined);
  try {
    const boltEnv = slackEnv(fake);
    const boltPort = await freePort();
    const bolt = spawnTs('bench/ack-bolt.ts', { env: { ...boltEnv, PORT: String(boltPort) } });
    children.push(bolt);
    await bolt.waitForLine('ready', 30_000);
    const baseline = await measure('bare Bolt', `http://127.0.0.1:${boltPort}`, fake, rate, seconds, ctx);
    await bolt.stop();

    const deckhand = await (early ?? startSlackDeckhand(ctx, fake, sandbox, 'ack'));
    children.push(deckhand.child);
    const posted = () => fake.callsOf('chat.postMessage').length + fake.responses.length;
    const before = posted();
    const measured = await measure('Deckhand', `http://127.0.0.1:${deckhand.port}`, fake, rate, seconds, ctx);
    // The work behind the acks (dispatching /deploy, posting its card) finishes after the load.
    await until(() => posted() - before >= measured.sent + measured.warmUp, 20_000, 200);
    const cards = posted() - before;
    await deckhand.child.stop();
    notes.push(summary('bare Bolt', baseline), summary('Deckhand', measured));
    notes.push(
      `Deckhand answered ${cards} of ${measured.sent + measured.warmUp} commands (warm-up included) with a card within 20 s of the load.`,
    );
    if (fake.violations.length > 0)
      notes.push(`fake Slack violations: ${fake.violations.slice(0, 3).join('; ')}`);
    const all = [...measured.latencies];
    const over = all.filter((ms) => ms > SLACK_DEADLINE_MS).length + measured.timeouts + measured.errors;
    return {
      id: 'ack',
      title: '1. Ack latency',
      status: 'ran',
      figures: [
        ratioFigure(
          'ack p99',
          percentile(measured.latencies, 99),
          percentile(baseline.latencies, 99),
          'bare Bolt',
          1.2,
          'ms',
        ),
        compareFigure(
          'ack p50',
          percentile(measured.latencies, 50),
          percentile(baseline.latencies, 50),
          'bare Bolt',
          'ms',
        ),
        limitFigure('requests over 3 s (or failed)', over, 0),
        infoFigure('ack max', maxOf(all), 'ms'),
        infoFigure('achieved rate', measured.achievedRate, 'req/s'),
      ],
      params: { rate, seconds, command: '/deploy mytool' },
      notes,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    for (const child of children) await child.stop();
    if (early)
      await early.then(
        (d) => d.child.stop(),
        () => undefined,
      );
    await fake.close();
    await sandbox.close();
  }
}

/** The ack latency benchmark. */
export const ackBenchmark: Benchmark = { id: 'ack', title: '1. Ack latency', run: runAck };
