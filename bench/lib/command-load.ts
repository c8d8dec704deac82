/**
 * A steady load of signed `/deploy mytool` slash commands, each from its own channel: the first card
 * posted in that channel (a `chat.postMessage`, or an answer through the command's `response_url`) is
 * its reply, so every command is matched to its answer — none counted twice, none missed. Commands
 * are counted when autocannon builds them (every request that left), not from its summary, which
 * leaves out requests still in flight when the duration ends (the cause of the old "answered 4450 of
 * 4402": those commands were sent and answered but not counted as sent).
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import type { FakeSlack } from '../../test/fakes/slack';
import { signedCommand } from './slack-command';
import { percentile, round, sleep, until } from './stats';

/** Latencies and counts of one load run. */
export interface LoadRun {
  /** Ack latency of every answered request (ms, from autocannon's response events). */
  acks: number[];
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Requests that left the load generator. */
  sent: number;
  achievedRate: number;
  /** When each command was built and sent, by channel. */
  sentAt: Map<string, number>;
}

/**
 * Steady load: one connection per command a second, each its own autocannon instance, started 1/rate
 * seconds after the previous one, so arrivals are spread evenly over each second as Slack's requests
 * from many people are. A connection may send only one request a second: autocannon's per-connection
 * rate sends its whole quota back to back as soon as its one-second tick opens and then waits for the
 * next tick, so 4 requests a second per connection (what this did before) sent every second's 200
 * commands within its first 250 ms — bursts at 800/s, measured from the acks' timestamps — and timed
 * each ack behind the burst's others. (autocannon's `overallRate` does the same.)
 */
export function connectionsFor(rate: number): { connections: number; connectionRate: number } {
  const connections = Math.max(1, Math.round(rate));
  return { connections, connectionRate: rate / connections };
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

/** Sends `rate` commands a second for `seconds` to a Slack events URL, from this process. */
export async function commandLoad(target: LoadTarget, rate: number, seconds: number): Promise<LoadRun> {
  const tag = `${process.pid.toString(36)}${randomBytes(3).toString('hex')}`.toUpperCase();
  const acks: number[] = [];
  const sentAt = new Map<string, number>();
  let seq = 0;
  const setupRequest = (request: autocannon.Request): autocannon.Request => {
    seq += 1;
    const channel = `CB${tag}X${seq}`;
    const place = {
      teamId: target.teamId,
      channel,
      userId: 'UADMIN',
      userName: 'ada',
      responseBase: `${target.fakeUrl}/response/${channel}-`,
    };
    const { body, headers } = signedCommand(target.secret, place, '/deploy mytool');
    sentAt.set(channel, Date.now());
    return { ...request, method: 'POST', path: '/slack/events', body, headers } as autocannon.Request;
  };
  const connection = (): Promise<autocannon.Result> =>
    new Promise((resolve, reject) => {
      const instance = autocannon(
        {
          url: target.url,
          method: 'POST',
          connections: 1,
          connectionRate: connectionsFor(rate).connectionRate,
          // A count, not a duration: a connection's first command leaves as it connects, so a
          // duration of 6 s sent 7 a connection (rate × 7/6); `amount` sends exactly rate × seconds.
          amount: Math.max(1, Math.round(seconds * connectionsFor(rate).connectionRate)),
          timeout: 10,
          requests: [{ setupRequest }],
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
      instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
        acks.push(ms);
      });
    });
  const { connections } = connectionsFor(rate);
  const results = await Promise.all(
    Array.from({ length: connections }, (_, i) => sleep((i * 1000) / rate).then(connection)),
  );
  const sum = (pick: (r: autocannon.Result) => number) => results.reduce((n, r) => n + pick(r), 0);
  return {
    acks,
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    sent: sentAt.size,
    achievedRate: sentAt.size / seconds,
    sentAt,
  };
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
