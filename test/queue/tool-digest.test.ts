/**
 * `/subscribe <tool> --digest daily@09:00`: one message per tool per period, in the conversation's
 * time zone (Europe/Berlin here, across the end of summer time on the last Sunday of October), built
 * from the audit trail (deployments, locks) and what the watches saw (job failures), posted once per
 * period even when the same run is processed again.
 */
import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { RedisEffectLedger } from '../../src/coordination/effect-records';
import type { ChangeRecord } from '../../src/core/change-record';
import { digestPeriod } from '../../src/core/digest-period';
import type { Card } from '../../src/core/reply';
import type { WatchEvent } from '../../src/core/watch';
import { digestEffectKey } from '../../src/queue/digest-processor';
import { type DigestJobData, digestSchedulerId } from '../../src/queue/digest-scheduler';
import { notifyJobId } from '../../src/queue/queues';
import { ToolEventLog } from '../../src/store/tool-events';
import { startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';
import { waitFor } from '../support/wait';

let t: TestApp;
useStarted(startTestApp, (started) => {
  t = started;
});

const CHANNEL = 'slack:T1:C1';
const at = (iso: string) => Date.parse(iso);

function change(when: string, command: string, args: Record<string, unknown>, outcome = 'ok'): ChangeRecord {
  return {
    id: `${command}-${when}`,
    at: at(when),
    platform: 'slack',
    user: 'slack:T1:UMAINT',
    name: 'Maintainer',
    conversationId: CHANNEL,
    command,
    tool: args.tool as string,
    args,
    outcome,
  };
}

function jobEvent(when: string, id: string, to: string, outcome: WatchEvent['outcome']): WatchEvent {
  return {
    tool: 'mytool',
    kind: 'job',
    id,
    from: 'running',
    to,
    at: at(when),
    detail: '',
    outcome,
    terminal: false,
  };
}

let runs = 0;

/** Processes the digest run scheduled for `runAt`; resolves with its result and the cards it posted. */
async function run(runAt: string): Promise<{ result: string; posted: Card[] }> {
  const scheduler = await t.app.queues.digest.getJobScheduler(digestSchedulerId(CHANNEL, 'mytool'));
  const data = scheduler?.template?.data as DigestJobData;
  runs += 1;
  const jobId = `tool-digest-run-${runs}`;
  const before = t.transcript.posted.length;
  // As the job scheduler adds it: the run's scheduled time in `prevMillis`.
  const job = await t.app.queues.digest.add('digest', data, { jobId, prevMillis: at(runAt) });
  const done = await waitFor(async () => {
    const state = await job.getState();
    return state === 'completed' || state === 'failed' ? (state as string) : undefined;
  });
  expect(done).toBe('completed');
  const finished = (await t.app.queues.digest.getJob(jobId)) as Job;
  // Only digests: the live announcements of the same events (transitions) arrive meanwhile.
  const posted = t.transcript.posted.slice(before).filter((card) => card.footer?.includes('digest at'));
  return { result: finished.returnvalue as string, posted };
}

describe('tool digest', () => {
  it('lists exactly the period’s deployments, job failures and lock, once per period, across the DST change', async () => {
    await t.say('/timezone Europe/Berlin');
    const [reply] = await t.say('/subscribe mytool --digest daily@09:00');
    expect(reply?.text).toContain(
      'This conversation now gets a daily digest at 09:00 (Europe/Berlin) of mytool',
    );
    // With a digest, only transitions are announced at once.
    expect(reply?.text).toContain(
      'This conversation now hears about mytool: builds, deploys, jobs (changes only).',
    );
    // The scheduler's next job carries its scheduled time, which names the period it reports on.
    const scheduler = await t.app.queues.digest.getJobScheduler(digestSchedulerId(CHANNEL, 'mytool'));
    const delayed = await t.app.queues.digest.getDelayed();
    expect(delayed.find((job) => job.data.tool === 'mytool')?.opts.prevMillis).toBe(scheduler?.next);

    const audit = t.app.services.accounts.audit;
    // The period of the run on Sunday 25 October 2026 at 09:00 CET: from Saturday 09:00 CEST
    // (07:00 UTC) to Sunday 09:00 CET (08:00 UTC), 25 hours.
    for (const record of [
      change('2026-10-24T06:59:00Z', 'deploy', { tool: 'mytool', ref: 'before-period' }),
      change('2026-10-24T07:00:00Z', 'deploy', { tool: 'mytool', ref: 'v1' }),
      change('2026-10-24T12:00:00Z', 'tool lock', { tool: 'mytool', reason: ['migrating', 'db'] }),
      change('2026-10-24T15:00:00Z', 'deploy', { tool: 'mytool', ref: 'v2' }, 'permission'),
      change('2026-10-25T00:30:00Z', 'deploy', { tool: 'othertool', ref: 'x' }),
      // 02:30 CEST and 02:30 CET: the hour the clocks go back, both inside the period.
      change('2026-10-25T00:30:00Z', 'deploy', { tool: 'mytool', ref: 'v3', forceBuild: true }),
      change('2026-10-25T01:30:00Z', 'rollback', { tool: 'mytool', to: 'v2' }),
      change('2026-10-25T08:00:00Z', 'deploy', { tool: 'mytool', ref: 'next-period' }),
    ]) {
      await audit.append(record);
    }
    const events = [
      jobEvent('2026-10-24T09:00:00Z', 'nightly', 'failed', 'failure'),
      jobEvent('2026-10-24T09:05:00Z', 'nightly', 'running', 'success'),
      jobEvent('2026-10-25T07:59:00Z', 'worker', 'failed', 'failure'),
      // The same job failing again (after a recovery not listed here): a new event.
      { ...jobEvent('2026-10-25T09:00:00Z', 'worker', 'failed', 'failure'), serial: 2 },
    ];
    for (const event of events) await t.app.queues.notify.add('event', event, { jobId: notifyJobId(event) });
    const log = new ToolEventLog(t.app.redis.redis, t.app.services.config.REDIS_KEY_PREFIX);
    await waitFor(async () => (await log.between('mytool', 0, Date.now())).length === events.length);

    const first = await run('2026-10-25T08:00:00Z');
    expect(first.result).toBe('posted');
    expect(first.posted).toHaveLength(1);
    const card = first.posted[0] as Card;
    expect(card.title).toBe('mytool: the last 24 hours');
    expect(card.fields?.map((f) => `${f.label} | ${f.value}`)).toEqual([
      'Deployments | 3',
      'Sat 09:00 | deploy by Maintainer: ref=v1',
      'Sun 02:30 | deploy by Maintainer: ref=v3, forceBuild',
      'Sun 02:30 | rollback by Maintainer: to=v2',
      'Failed or restarted jobs | 2',
      'Sat 11:00 | job nightly failed',
      'Sun 08:59 | job worker failed',
      'Locks | 1',
      'Sat 14:00 | locked by Maintainer: migrating db',
    ]);
    expect(card.footer).toContain('daily digest at 09:00 (Europe/Berlin)');

    // The same run processed again (a worker that crashed after posting): nothing more is posted.
    const again = await run('2026-10-25T08:00:00Z');
    expect(again).toEqual({ result: 'done', posted: [] });

    // The next period starts where this one ended, at 09:00 CET (08:00 UTC).
    const next = await run('2026-10-26T08:00:00Z');
    expect(next.posted.map((c) => c.fields?.map((f) => f.value))).toEqual([
      ['1', 'deploy by Maintainer: ref=next-period', '1', 'job worker failed'],
    ]);
  });

  it('posts nothing for a quiet period (the same run posts when the period had news)', async () => {
    const quiet = await run('2026-10-28T08:00:00Z');
    expect(quiet).toEqual({ result: 'empty', posted: [] });
    // What proves the check above could see a post: the same run, once its period has news, posts.
    await t.app.services.accounts.audit.append(
      change('2026-10-27T10:00:00Z', 'deploy', { tool: 'mytool', ref: 'v9' }),
    );
    const busy = await run('2026-10-28T08:00:00Z');
    expect(busy.result).toBe('posted');
    expect(busy.posted.map((c) => c.fields?.[1]?.value)).toEqual(['deploy by Maintainer: ref=v9']);
  });

  it('refuses a bad schedule with a clear message and changes nothing; --digest off stops it', async () => {
    const [bad] = await t.say('/subscribe mytool --digest hourly');
    expect(bad?.text).toContain('"hourly" is not a digest schedule.');
    expect(await t.app.services.digests.get(CHANNEL, 'mytool')).toMatchObject({
      every: 'daily',
      at: '09:00',
    });
    const [weekly] = await t.say('/subscribe mytool --digest "weekly@mon 17:30"');
    expect(weekly?.text).toContain('weekly digest on Mondays at 17:30 (Europe/Berlin) of mytool');
    expect(await t.app.queues.digest.getJobScheduler(digestSchedulerId(CHANNEL, 'mytool'))).toMatchObject({
      pattern: '30 17 * * 1',
      tz: 'Europe/Berlin',
    });
    const [list] = await t.say('/subscriptions');
    expect(list?.fields?.map((f) => f.label)).toContain('mytool digest');
    const [off] = await t.say('/subscribe mytool --digest off');
    expect(off?.text).toBe('The mytool digest here is stopped.');
    expect(await t.app.services.digests.get(CHANNEL, 'mytool')).toBeUndefined();
    expect(await t.app.services.subscriptions.get(CHANNEL, 'mytool')).toMatchObject({ changesOnly: true });
  });

  it('--format compact makes live announcements one line; full keeps the detail', async () => {
    const announced = async (id: string) =>
      waitFor(() => t.transcript.posted.find((card) => card.footer === `job ${id}`));
    await t.say('/unsubscribe mytool');
    await t.say('/subscribe mytool jobs');
    const full = jobEvent('2026-11-02T10:00:00Z', 'cron-a', 'failed', 'failure');
    await t.app.queues.notify.add('event', full, { jobId: notifyJobId(full) });
    expect(await announced('cron-a')).toMatchObject({
      title: 'mytool: job failed',
      text: 'job cron-a is now failed (was running)',
    });

    const [reply] = await t.say('/subscribe mytool jobs --format compact');
    expect(reply?.text).toContain('This conversation now hears about mytool: jobs (compact).');
    const compact = jobEvent('2026-11-02T11:00:00Z', 'cron-b', 'failed', 'failure');
    await t.app.queues.notify.add('event', compact, { jobId: notifyJobId(compact) });
    const card = await waitFor(() =>
      t.transcript.posted.find((c) => c.title === 'mytool: job failed' && c.text === undefined),
    );
    expect(card.text).toBeUndefined();
    // The same buttons as the full announcement.
    const first = t.transcript.posted.find((c) => c.footer === 'job cron-a');
    expect(card.buttons?.map((b) => b.label)).toEqual(first?.buttons?.map((b) => b.label));
    expect(card.buttons?.length).toBeGreaterThan(0);
  });

  it('a run after a worker stopped between its claim and its post says the digest may have been posted', async () => {
    await t.say('/subscribe mytool --digest daily@09:00');
    const data = (await t.app.services.digests.get(CHANNEL, 'mytool')) as DigestJobData;
    const runAt = at('2026-11-02T08:00:00Z');
    const effects = new RedisEffectLedger(t.app.redis.redis, t.app.services.config.REDIS_KEY_PREFIX);
    // What the stopped worker left: the period claimed, no outcome.
    await effects.claim(digestEffectKey(data, digestPeriod(data, runAt)));
    await t.app.services.accounts.audit.append(
      change('2026-11-01T12:00:00Z', 'deploy', { tool: 'mytool', ref: 'v10' }),
    );
    const retried = await run('2026-11-02T08:00:00Z');
    expect(retried.result).toBe('posted');
    expect(retried.posted.map((c) => c.footer)).toEqual([
      expect.stringContaining('may have been posted already (a worker stopped while posting)'),
    ]);
    expect(await run('2026-11-02T08:00:00Z')).toEqual({ result: 'done', posted: [] });
  });
});
