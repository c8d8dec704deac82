import { startToolhostSandbox, type ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolhostClientFactory } from '../../src/services/toolhost';
import type { App } from '../../src/wiring';
import { slackEnv } from '../fakes/slack/harness';
import type { SlackDriver } from '../fakes/slack/requests';
import { FakeSlack } from '../fakes/slack/server';
import { processEnv } from '../support/process-env';
import { closeAll } from '../support/started';
import { waitFor } from '../support/wait';
import { type SlackWebProcess, startSlackWebProcess } from '../support/web-process';
import {
  bundleWorker,
  type LoadedWorker,
  preloadedWorkers,
  type WorkerBundle,
} from '../support/worker-bundle';
import { sandboxEnv, stopWorker } from '../support/worker-process';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 10);
const SIGNING_SECRET = 'crash-effects-signing-secret-01';
const ADMIN = { id: 'UADMIN', name: 'ada' };
const OTHER = { id: 'UOTHER', name: 'grace' };
const INTERNAL = 'Something went wrong on our side';

let sandbox: ToolhostSandbox;
let platform: ToolhostClientFactory;
let bundle: WorkerBundle;
let slack: FakeSlack;
let app: App;
let web: SlackWebProcess;
let driver: SlackDriver;
let env: Record<string, string>;
let workers: ReturnType<typeof preloadedWorkers>;
let current: LoadedWorker | undefined;

/** The next (already loaded) worker process, started; another one starts loading behind it. */
async function nextWorker(): Promise<LoadedWorker> {
  current = await workers.nextStarted();
  return current;
}

beforeAll(async () => {
  sandbox = await startToolhostSandbox({ stepMs: 20 });
  platform = ToolhostClientFactory.forSandbox(sandbox);
  bundle = await bundleWorker();
  slack = await FakeSlack.start();
  env = {
    // A dead worker's command is taken over after about a second.
    ...processEnv({ lockMs: 1000, watchPollMs: 100 }),
    ...sandboxEnv(sandbox),
    ...slackEnv(slack, SIGNING_SECRET),
    ADMINS: `slack:${ADMIN.id},slack:${OTHER.id}`,
  };
  web = await startSlackWebProcess(env, slack);
  app = web.app;
  driver = web.driver;
  workers = preloadedWorkers(bundle, env);
  await nextWorker();
}, 180_000);

afterAll(async () => {
  await bundle?.stopAll('SIGKILL');
  await closeAll(web, slack, platform, sandbox);
  bundle?.remove();
}, 60_000);

/** A slash command typed in `channel`; resolves with what the user sees of its answers. */
async function type(user: typeof ADMIN, channel: string, line: string): Promise<() => string> {
  const fields = driver.commandFields(user, channel, line);
  const before = slack.channelMessages(channel).length;
  const responseId = fields.response_url?.split('/').at(-1);
  const delivered = await driver.sendCommand(fields);
  expect(delivered.status).toBe(200);
  return () =>
    JSON.stringify([
      slack.channelMessages(channel).slice(before),
      slack.responses.filter((r) => r.id === responseId).map((r) => r.body),
    ]);
}

/** True when the user was shown an answer: the command's result, or a card saying it may have run. */
function answered(shown: string, result: RegExp): boolean {
  return result.test(shown) || /may already have run|may have partly run/.test(shown);
}

/** One side-effecting command under test. */
interface Case {
  name: string;
  /** The command line of round `n`, and the channel it is typed in. */
  line(n: number): string;
  channel(n: number): string;
  /** The platform request that carries the effect out. */
  method: string;
  path: RegExp;
  /** What its result card shows (round `n`). */
  result(n: number): RegExp;
  /** Effects found in the platform's state for round `n` (when it keeps them apart). */
  state?(n: number): Promise<number>;
  /** Waits until the platform is ready for the next round (a deployment ended). */
  settle?(): Promise<void>;
}

interface Figures {
  rounds: number;
  doubled: number;
  silent: number;
  effects: number[];
  shown: string[];
  timings: string[];
}

/**
 * Runs the crash rounds of one command: arm the hold, type the command, SIGKILL the worker once the
 * platform carried the request out, start the next worker, wait for the user's answer.
 */
async function crashRounds(c: Case): Promise<Figures> {
  const figures: Figures = { rounds: 0, doubled: 0, silent: 0, effects: [], shown: [], timings: [] };
  for (let n = 0; n < ROUNDS; n += 1) {
    const t0 = Date.now();
    const steps: string[] = [];
    const step = (what: string) => steps.push(`${what} ${Date.now() - t0}`);
    const before = sandbox.controls.carried(c.method, c.path);
    const held = sandbox.controls.holdNext(c.method, c.path);
    const shown = await type(ADMIN, c.channel(n), c.line(n));
    await Promise.race([
      held.arrived,
      new Promise((_, reject) =>
        setTimeout(
          () => reject(new Error(`${c.name} round ${n}: never reached the platform; shown ${shown()}`)),
          60_000,
        ),
      ),
    ]);
    step('arrived');
    await stopWorker((current as LoadedWorker).child, 'SIGKILL');
    held.release();
    await nextWorker();
    step('next worker');
    const result = c.result(n);
    const seen = await waitFor(() => answered(shown(), result), 60_000, 50).catch(() => false);
    if (!seen) console.info(`${c.name} round ${n}: no answer; shown ${shown()}`);
    step('answered');
    await waitFor(async () => (await app.queues.commands.getActiveCount()) === 0, 30_000, 50);
    figures.timings.push(steps.join(', '));
    const carried = sandbox.controls.carried(c.method, c.path) - before;
    const inState = c.state ? await c.state(n) : carried;
    const effects = Math.max(carried, inState);
    figures.rounds += 1;
    figures.effects.push(effects);
    if (effects > 1) figures.doubled += 1;
    if (!seen) figures.silent += 1;
    figures.shown.push(shown());
    // Positive control: the effect did happen (once) — a round that did nothing proves nothing.
    expect(effects, `${c.name} round ${n}: carried out`).toBeGreaterThanOrEqual(1);
    expect(shown(), `${c.name} round ${n}`).not.toContain(INTERNAL);
    await c.settle?.();
  }
  console.info(
    `${c.name}: rounds ${figures.rounds}, doubled ${figures.doubled}, silent ${figures.silent}; effects per round ${JSON.stringify(figures.effects)}\n${figures.timings.join('\n')}`,
  );
  return figures;
}

const tool = (name: string) => platform.forTool(name);
const unfinished = (status: string) => status === 'pending' || status === 'running';

const CASES: Case[] = [
  {
    name: '/build start',
    line: (n) => `/build start mytool https://example.org/crash-${n}.git`,
    channel: (n) => `C0BUILD${n}`,
    method: 'POST',
    path: /^\/builds\/v1\/tool\/mytool\/builds$/,
    result: (n) => new RegExp(`crash-${n}\\.git|Build`),
    state: async (n) =>
      (await tool('mytool').builds.list()).filter(
        (b) => b.parameters?.source_url === `https://example.org/crash-${n}.git`,
      ).length,
  },
  {
    name: '/jobs restart',
    line: () => '/jobs restart demo api',
    channel: (n) => `C0RESTART${n}`,
    method: 'POST',
    path: /^\/jobs\/v1\/tool\/demo\/jobs\/api\/restart$/,
    result: () => /restarted|api/,
  },
  {
    name: '/jobs run',
    line: (n) => `/jobs run mytool crash-once-${n} --command "echo ${n}" --image python3.11`,
    channel: (n) => `C0RUN${n}`,
    method: 'POST',
    path: /^\/jobs\/v1\/tool\/mytool\/jobs$/,
    result: (n) => new RegExp(`crash-once-${n}`),
  },
  {
    name: '/webservice restart',
    line: () => '/webservice restart mytool',
    channel: (n) => `C0WEB${n}`,
    method: 'POST',
    path: /^\/jobs\/v1\/tool\/mytool\/jobs\/web\/restart$/,
    result: () => /web/,
  },
  {
    name: '/envvars set',
    line: (n) => `/envvars set mytool CRASH_VAR_${n} value-${n}`,
    // A direct message with Deckhand (values only go there).
    channel: () => `D${ADMIN.id.slice(1)}`,
    method: 'POST',
    path: /^\/envvars\/v1\/tool\/mytool\/envvars$/,
    result: (n) => new RegExp(`CRASH_VAR_${n}`),
  },
  {
    name: '/deploy',
    line: () => '/deploy demo',
    channel: (n) => `C0DEPLOY${n}`,
    method: 'POST',
    path: /^\/components\/v1\/tool\/demo\/deployment$/,
    result: () => /[Dd]eployment/,
    settle: async () => {
      await waitFor(
        async () => !(await tool('demo').components.listDeployments()).some((d) => unfinished(d.status)),
        60_000,
        100,
      );
    },
  },
];

describe('a side-effecting command whose worker is SIGKILLed after the platform accepted its request', () => {
  for (const c of CASES) {
    it(`${c.name}: 0 doubled effects and 0 silent commands in ${ROUNDS} rounds`, async () => {
      const ids = async () => (await tool('demo').components.listDeployments()).map((d) => d.deploy_id);
      const deploymentsBefore = await ids();
      const figures = await crashRounds(c);
      expect(figures.rounds).toBe(ROUNDS);
      expect(figures.effects).toEqual(Array(ROUNDS).fill(1));
      expect(figures.doubled).toBe(0);
      expect(figures.silent).toBe(0);
      if (c.name === '/deploy') {
        // One deployment per round in the platform's own list (it keeps the newest 25).
        const fresh = (await ids()).filter((id) => !deploymentsBefore.includes(id));
        expect(fresh).toHaveLength(ROUNDS);
      }
    }, 300_000);
  }
});

describe('a command whose worker dies twice, and another user just after a crash', () => {
  it('killed twice: the user gets the interrupted card naming how to check', async () => {
    const first = sandbox.controls.holdNext('POST', /^\/components\/v1\/tool\/demo\/deployment$/);
    const shown = await type(ADMIN, 'C0TWICE', '/deploy demo');
    await first.arrived;
    await stopWorker((current as LoadedWorker).child, 'SIGKILL');
    first.release();
    // The retry looks for the deployment its first attempt started: it is killed while it looks.
    const second = sandbox.controls.holdNext('GET', /^\/components\/v1\/tool\/demo\/deployment$/);
    await nextWorker();
    await second.arrived;
    await stopWorker((current as LoadedWorker).child, 'SIGKILL');
    const killed = Date.now();
    second.release();
    await nextWorker();
    await waitFor(() => shown().includes('may have partly run'), 60_000, 50);
    console.info(`killed twice: the interrupted card ${Date.now() - killed} ms after the second kill`);
    expect(shown(), shown()).toMatch(/deploy.{0,20} was interrupted; it may have partly run/);
    expect(shown(), shown()).toContain('deployment list demo`');
    expect(shown()).not.toContain(INTERNAL);
    await waitFor(
      async () => !(await tool('demo').components.listDeployments()).some((d) => unfinished(d.status)),
      60_000,
      100,
    );
    // Given up after the second kill, the command never ran again to free the start lock its first
    // attempt died holding: it lapses after its hold (the next /deploy of demo would be told it is busy).
    const lock = `${env.REDIS_KEY_PREFIX}lock:deploy:demo`;
    await waitFor(async () => (await app.redis.redis.exists(lock)) === 0, 60_000, 200);
  }, 180_000);

  it("a second user's /deploy of the same tool just after a crash gets a worded answer", async () => {
    const held = sandbox.controls.holdNext('POST', /^\/components\/v1\/tool\/demo\/deployment$/);
    const firstShown = await type(ADMIN, 'C0FIRST', '/deploy demo');
    await Promise.race([
      held.arrived,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`never reached the platform; shown ${firstShown()}`)), 60_000),
      ),
    ]);
    await stopWorker((current as LoadedWorker).child, 'SIGKILL');
    held.release();
    const started = Date.now();
    const otherShown = await type(OTHER, 'C0SECOND', '/deploy demo');
    await nextWorker();
    await waitFor(() => answered(firstShown(), /[Dd]eployment/), 60_000, 50);
    await waitFor(() => /[Dd]eployment/.test(otherShown()), 90_000, 100);
    console.info(`second user's /deploy answered ${Date.now() - started} ms after the crash`);
    expect(otherShown()).not.toContain(INTERNAL);
    expect(firstShown()).not.toContain(INTERNAL);
  }, 180_000);
});
