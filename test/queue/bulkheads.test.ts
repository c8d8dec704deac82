/**
 * One silent service never blocks the others. A `--role web` Deckhand (this process: the real Slack
 * adapter, no queue workers) queues; a `--role worker` process (the bundled
 * test/support/platform-worker.ts) runs the commands. The tool platform is a server that accepts
 * connections and never answers; the event calendar is its sandbox, answering normally.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { type CalendarSandbox, startCalendarSandbox } from '@deckhand/sandbox/calendar';
import { startToolhostSandbox, type ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SlackBot, slackEnv, startSlackBot, USERS } from '../fakes/slack/harness';
import { FakeSlack, type RecordedCall } from '../fakes/slack/server';
import { processEnv } from '../support/process-env';
import { closeAll } from '../support/started';
import { waitFor } from '../support/wait';
import { wallClockMs } from '../support/wall-clock';
import { bundleWorker, type WorkerBundle } from '../support/worker-bundle';
import { sandboxEnv } from '../support/worker-process';

/** A server that accepts every connection and never sends a byte (a silent platform). */
class SilentServer {
  readonly sockets = new Set<Socket>();
  accepted = 0;
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<SilentServer> {
    let silent: SilentServer | undefined;
    const server = createServer((socket) => {
      if (!silent) return;
      silent.accepted += 1;
      silent.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => silent?.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    silent = new SilentServer(server, typeof address === 'object' && address ? address.port : 0);
    return silent;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

let sandbox: ToolhostSandbox;
let calendar: CalendarSandbox;
let silent: SilentServer;
let bundle: WorkerBundle;
let fake: FakeSlack;
let web: SlackBot;
let env: Record<string, string>;

beforeAll(async () => {
  // The tool platform's sandbox only for its tools' client certificates; every request goes to `silent`.
  sandbox = await startToolhostSandbox({ stepMs: 300 });
  calendar = await startCalendarSandbox();
  silent = await SilentServer.start();
  bundle = await bundleWorker();
  fake = await FakeSlack.start();
  const shared = processEnv({ lockMs: 5000 });
  const prefix = shared.REDIS_KEY_PREFIX;
  env = {
    ...shared,
    ...sandboxEnv(sandbox),
    TOOLHOST_URL: `https://127.0.0.1:${silent.port}`,
    TOOLHOST_INTERNAL_URL: `https://127.0.0.1:${silent.port}`,
    CALENDAR_URL: calendar.restRoot,
    ...slackEnv(fake),
    ADMINS: `slack:${USERS.admin.id}`,
  };
  web = await startSlackBot({ role: 'web', fake, prefix, env });
}, 120_000);

afterEach(async () => {
  await bundle.stopAll('SIGKILL');
  expect(fake.violations).toEqual([]);
});

afterAll(async () => {
  await closeAll(web, fake, silent, calendar, sandbox);
  bundle?.remove();
}, 60_000);

async function worker(extra: Record<string, string> = {}) {
  const loaded = await bundle.load({ ...env, ...extra });
  await loaded.go();
  return loaded;
}

/** Everything Slack was asked to show in a channel (posts, edits, ephemerals), in order. */
const shownIn = (channel: string): RecordedCall[] =>
  fake.calls.filter((c) => c.method.startsWith('chat.') && c.form.channel === channel);
const says = (call: RecordedCall, words: string) => JSON.stringify(call.body).includes(words);

/** Sends `/categories list` in `channel` and resolves with how long its card took (ms). */
async function calendarCommand(channel: string): Promise<{ ms: number; at: number }> {
  const sent = wallClockMs();
  await web.driver.command(USERS.admin, channel, '/categories list');
  const card = await waitFor(
    () => shownIn(channel).find((c) => c.method === 'chat.postMessage' && c.status === 200),
    60_000,
    10,
  );
  return { ms: card.at - sent, at: card.at };
}

describe('a silent tool platform', () => {
  it('60 commands stuck on it: a calendar command still answers at once, while they are stuck', async () => {
    await worker({ COMMAND_DEADLINE_MS: '60000' });
    // Its normal time, once the worker is warm (its first command also opens connections).
    await calendarCommand('C0CALWARM');
    const normal = await calendarCommand('C0CALNORMAL');
    const stuck = Array.from({ length: 60 }, (_, i) => `C0STUCK${String(i).padStart(2, '0')}`);
    for (const [i, channel] of stuck.entries()) {
      await web.driver.command(USERS.admin, channel, `/jobs list ${i % 2 ? 'mytool' : 'demo'}`);
    }
    // The platform's compartment is full: its requests hang on the silent server.
    await waitFor(() => silent.sockets.size >= 16, 60_000, 10);
    const during = await calendarCommand('C0CALDURING');
    // Still stuck when the calendar answered: their connections are open and none of the commands
    // that reached the platform has had its answer (a worker of 50 slots, all held by the stuck
    // commands, answered this only once they gave up).
    expect(silent.sockets.size).toBeGreaterThanOrEqual(16);
    const answeredStuck = stuck.filter((c) =>
      shownIn(c).some(
        (call) =>
          call.at <= during.at &&
          /not answering|cannot be reached|did not answer/.test(JSON.stringify(call.body)),
      ),
    );
    expect(answeredStuck).toEqual([]);
    console.info(
      `calendar command: ${Math.round(normal.ms)} ms alone, ${Math.round(during.ms)} ms with 60 commands stuck (${(during.ms / normal.ms).toFixed(2)}×); ${silent.sockets.size} requests held by the silent platform`,
    );

    // Every stuck command is answered in words: refused at once past the compartment's line, or told
    // the platform is not answering (unanswered, or known down since).
    await waitFor(
      () => stuck.every((c) => shownIn(c).some((call) => call.method === 'chat.postEphemeral')),
      120_000,
      50,
    );
    const answers = stuck.map(
      (c) => JSON.stringify(shownIn(c).find((call) => call.method === 'chat.postEphemeral')?.body) ?? '',
    );
    const refused = answers.filter((a) => a.includes('is slow to answer')).length;
    const knownDown = answers.filter((a) => a.includes('is not answering')).length;
    const unanswered = answers.filter(
      (a) => a.includes('cannot be reached') || a.includes('did not answer'),
    ).length;
    console.info(
      `the 60: ${refused} refused at once, ${unanswered} unanswered, ${knownDown} told the platform is down`,
    );
    expect(refused + knownDown + unanswered).toBe(60);
    expect(refused).toBeGreaterThan(0);
    expect(knownDown).toBeGreaterThan(0);
    // Known down: a new command is answered at once with the outage message, nothing more is sent.
    const before = silent.accepted;
    await web.driver.command(USERS.admin, 'C0AFTER', '/jobs list mytool');
    const outage = await waitFor(
      () => shownIn('C0AFTER').find((c) => c.method === 'chat.postEphemeral'),
      30_000,
      10,
    );
    expect(says(outage, 'The tool platform is not answering')).toBe(true);
    expect(says(outage, 'not a problem with your request')).toBe(true);
    expect(silent.accepted).toBe(before);
  }, 240_000);

  it('/deploy answers within its deadline, across the client’s retries, after a "still waiting" card', async () => {
    const deadlineMs = 4000;
    await worker({ COMMAND_DEADLINE_MS: String(deadlineMs), TOOLHOST_TIMEOUT_MS: '15000' });
    const sent = wallClockMs();
    await web.driver.command(USERS.admin, 'C0DEPLOY', '/deploy mytool');
    const answer = await waitFor(
      () => shownIn('C0DEPLOY').find((c) => c.method === 'chat.postEphemeral'),
      60_000,
      10,
    );
    const calls = shownIn('C0DEPLOY');
    const waiting = calls.find((c) => c.method === 'chat.postMessage');
    expect(waiting && says(waiting, 'Still waiting for the tool platform')).toBe(true);
    expect(waiting?.at).toBeLessThan(answer.at);
    // The waiting card is edited (the answer itself is private: shown to the one who asked).
    const edited = await waitFor(() => calls.find((c) => c.method === 'chat.update'), 10_000);
    expect(says(edited, 'shown only to the person who asked')).toBe(true);
    expect(says(answer, 'did not answer within the 4 s Deckhand gives a command')).toBe(true);
    const tookMs = answer.at - sent;
    console.info(
      `/deploy on a silent platform: waiting card after ${Math.round((waiting?.at ?? 0) - sent)} ms, answer after ${Math.round(tookMs)} ms (deadline ${deadlineMs} ms)`,
    );
    // Not even one connection attempt's timeout (10 s, undici's) was waited out, let alone a request
    // timeout (15 s) per retry.
    expect(tookMs).toBeLessThan(10_000);
  }, 120_000);
});
