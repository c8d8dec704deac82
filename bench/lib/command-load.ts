/**
 * A steady load of signed `/deploy mytool` slash commands, each from its own channel: the first card
 * posted in that channel (a `chat.postMessage`, or an answer through the command's `response_url`) is
 * its reply, so every command is matched to its answer — none counted twice, none missed. Commands
 * are counted as they leave (every request sent), not from a load tool's summary, which left out
 * requests still in flight when the duration ended (those commands would be answered but not counted
 * as sent).
 */
import { randomBytes } from 'node:crypto';
import { errors, Pool } from 'undici';
import type { FakeSlack } from '../../test/fakes/slack';
import { wallClockMs } from '../../test/support/wall-clock';
import { signedCommand } from './slack-command';
import { percentile, round, sleep, until } from './stats';

/** Latencies and counts of one load run. */
export interface LoadRun {
  /** Ack latency of every answered request (ms, from the request's start to its response's end). */
  acks: number[];
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Requests that left the load generator. */
  sent: number;
  achievedRate: number;
  /** When each command was sent (wall clock, ms with a fraction), by channel. */
  sentAt: Map<string, number>;
}

/** Where the commands of a load run come from and answer to. */
export interface LoadTarget {
  /** The Slack events URL's origin (`http://127.0.0.1:<port>`). */
  url: string;
  secret: string;
  /** The fake Slack's team id. */
  teamId: string;
  /** The fake Slack's base URL (response URLs point there). */
  fakeUrl: string;
}

/** How long a command may wait for its ack before it counts as a timeout. */
const ACK_TIMEOUT_MS = 10_000;

/**
 * Sends `rate` commands a second for `seconds` to a Slack events URL, from this process: an open-loop
 * load, each command leaving at its own time (start + n/rate) whatever the server does, so arrivals
 * are spread evenly over each second as Slack's requests from many people are, and a slow server does
 * not slow the load down (which would flatter it). The HTTP is undici's, over a pool of keep-alive
 * connections (one per command in flight). Each ack is timed from the request's start to the end of
 * its response.
 *
 * (A load tool with a per-connection rate, such as autocannon, sends each connection's quota back to
 * back at the start of each second, and one with per-connection histograms allocates memory per
 * connection: its own pauses would be timed as the servers' ack latency. This generator keeps no
 * histograms and sends each command at its own time.)
 */
export async function commandLoad(target: LoadTarget, rate: number, seconds: number): Promise<LoadRun> {
  const tag = `${process.pid.toString(36)}${randomBytes(3).toString('hex')}`.toUpperCase();
  const run: LoadRun = {
    acks: [],
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    sent: 0,
    achievedRate: 0,
    sentAt: new Map(),
  };
  const pool = new Pool(target.url, {
    // A connection for every command that may be in flight: the pool never makes a command wait.
    connections: Math.max(1, Math.ceil((rate * ACK_TIMEOUT_MS) / 1000)),
    headersTimeout: ACK_TIMEOUT_MS,
    bodyTimeout: ACK_TIMEOUT_MS,
  });
  const send = async (seq: number): Promise<void> => {
    const channel = `CB${tag}X${seq}`;
    const place = {
      teamId: target.teamId,
      channel,
      userId: 'UADMIN',
      userName: 'ada',
      responseBase: `${target.fakeUrl}/response/${channel}-`,
    };
    const { body, headers } = signedCommand(target.secret, place, '/deploy mytool');
    run.sentAt.set(channel, wallClockMs());
    const started = performance.now();
    try {
      const response = await pool.request({ path: '/slack/events', method: 'POST', headers, body });
      await response.body.dump();
      run.acks.push(performance.now() - started);
      if (response.statusCode < 200 || response.statusCode >= 300) run.non2xx += 1;
    } catch (error) {
      if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError) {
        run.timeouts += 1;
      } else run.errors += 1;
    }
  };
  const total = Math.max(1, Math.round(rate * seconds));
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let seq = 1; seq <= total; seq += 1) {
    const wait = start + ((seq - 1) * 1000) / rate - performance.now();
    if (wait >= 1) await sleep(wait);
    inFlight.push(send(seq));
  }
  // The rate achieved: commands over the time it took to send them (one interval after the last).
  const sendingSeconds = (performance.now() - start) / 1000 + 1 / rate;
  await Promise.all(inFlight);
  await pool.close();
  run.sent = run.sentAt.size;
  run.achievedRate = run.sent / Math.max(seconds, sendingSeconds);
  return run;
}

/** When the first card reached each channel (`chat.postMessage` or `response_url`). */
function firstReplies(fake: FakeSlack): Map<string, { at: number; count: number }> {
  const replies = new Map<string, { at: number; count: number }>();
  const add = (channel: string, at: number) => {
    const seen = replies.get(channel);
    replies.set(channel, seen ? { at: Math.min(seen.at, at), count: seen.count + 1 } : { at, count: 1 });
  };
  for (const call of fake.callsOf('chat.postMessage')) {
    if (call.status === 200 && !call.error) add(String(call.body.channel), call.at);
  }
  for (const response of fake.responses) add(response.id.split('-')[0] ?? '', response.at);
  return replies;
}

/** Command → first reply of one load run. */
export interface Replies {
  /** ms from sending a command to its first card, per answered command. */
  latencies: number[];
  answered: number;
  /** Commands whose channel got more than one card. */
  answeredTwice: number;
  sent: number;
}

/** Waits (at most `timeoutMs`) until every command of a run has its card, then matches them. */
export async function repliesOf(fake: FakeSlack, load: LoadRun, timeoutMs: number): Promise<Replies> {
  const answered = () => {
    const replies = firstReplies(fake);
    return [...load.sentAt.keys()].filter((c) => replies.has(c)).length;
  };
  await until(() => answered() >= load.sent, timeoutMs, 200).catch(() => undefined);
  const replies = firstReplies(fake);
  const latencies: number[] = [];
  let answeredTwice = 0;
  for (const [channel, at] of load.sentAt) {
    const reply = replies.get(channel);
    if (!reply) continue;
    latencies.push(reply.at - at);
    if (reply.count > 1) answeredTwice += 1;
  }
  return { latencies, answered: latencies.length, answeredTwice, sent: load.sent };
}

/** One line about a load run and its replies. */
export function describeRun(name: string, load: LoadRun, replies?: Replies): string {
  const ack = `${load.sent} commands (${round(load.achievedRate, 1)}/s), ack p50 ${round(percentile(load.acks, 50))} ms, p99 ${round(percentile(load.acks, 99))} ms, non-2xx ${load.non2xx}, errors ${load.errors}, timeouts ${load.timeouts}`;
  if (!replies) return `${name}: ${ack}`;
  return `${name}: ${ack}; answered ${replies.answered} of ${replies.sent} with a card (${replies.answeredTwice} with more than one), first reply p50 ${round(percentile(replies.latencies, 50))} ms, p99 ${round(percentile(replies.latencies, 99))} ms`;
}

/** The runs of several rounds against one target as one run (every ack, every command). */
export function poolRuns(runs: LoadRun[]): LoadRun {
  const sum = (pick: (r: LoadRun) => number) => runs.reduce((n, r) => n + pick(r), 0);
  const sent = sum((r) => r.sent);
  const seconds = sum((r) => (r.achievedRate > 0 ? r.sent / r.achievedRate : 0));
  return {
    acks: runs.flatMap((r) => r.acks),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    sent,
    achievedRate: seconds > 0 ? sent / seconds : 0,
    sentAt: new Map(runs.flatMap((r) => [...r.sentAt])),
  };
}

/** The replies of several rounds as one. */
export function poolReplies(replies: Replies[]): Replies {
  return {
    latencies: replies.flatMap((r) => r.latencies),
    answered: replies.reduce((n, r) => n + r.answered, 0),
    answeredTwice: replies.reduce((n, r) => n + r.answeredTwice, 0),
    sent: replies.reduce((n, r) => n + r.sent, 0),
  };
}
