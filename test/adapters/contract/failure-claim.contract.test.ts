/**
 * A failure someone can claim, on every platform, through each real adapter and its fake (IRC's
 * real network): a job's failure is announced with its log lines and I'm on it; pressing it names
 * the presser on the card and is answered once; five repeats of the failure are not announced; the
 * job's recovery edits the card and is announced once; the claim is one change record in the audit
 * trail.
 */
import { expect, it } from 'vitest';
import type { WatchEvent } from '../../../src/core/watch';
import { notifyJobId } from '../../../src/queue/queues';
import { waitFor } from '../../support/wait';
import type { ContractDriver } from './driver';
import { auditSince, describeEachPlatform, readable } from './each-platform';

/** Hands a job's state change to the fan-out, as discovery does. */
async function handOn(d: ContractDriver, job: string, to: 'failed' | 'running', serial: number) {
  const failed = to === 'failed';
  const event: WatchEvent = {
    tool: 'mytool',
    kind: 'job',
    id: job,
    claim: { scope: { tool: 'mytool', job: job }, everyOutcome: true },
    from: failed ? 'running' : 'failed',
    to,
    at: Date.now(),
    detail: `Job ${job} (continuous) is ${to}.`,
    outcome: failed ? 'failure' : 'success',
    terminal: false,
    serial,
    ...(failed
      ? {
          failure: {
            lines: ['Traceback (most recent call last):', `ValueError: boom ${serial}`],
            exitCode: 1,
            restarts: 3,
            jobType: 'continuous',
          },
        }
      : {}),
  };
  const id = notifyJobId(event);
  await d.app.queues.notify.add('event', event, { jobId: id });
  await waitFor(async () => ((await d.app.queues.notify.getJobState(id)) === 'completed' ? true : undefined));
}

/** Every announcement, card edit and reply has been handled. */
const settled = (d: ContractDriver) =>
  waitFor(async () => ((await d.app.services.watches.activeCount()) === 0 ? true : undefined), 60_000);

describeEachPlatform('a failure someone can claim', (driver) => {
  it("I'm on it names the presser; five repeats are not announced; the recovery edits the card and is announced once", async () => {
    const d = driver();
    const job = `crashy-${d.platform}`;
    const mytool = d.app.services.toolhost.forTool('mytool');
    await mytool.jobs.create({
      job_type: 'continuous',
      name: job,
      cmd: 'python3 app.py',
      imagename: 'python3.11',
      filelog: false,
    });
    await waitFor(async () => ((await mytool.jobs.show(job)).status?.short === 'running' ? true : undefined));
    await d.app.services.subscriptions.put({
      conversationId: d.conversationId,
      platform: d.platform,
      tool: 'mytool',
      kinds: ['jobs'],
      failuresOnly: false,
      changesOnly: false,
      createdBy: `${d.platform}:contract`,
    });
    const since = Date.now();
    // The cards that read `title` (on their page too, where a message is a summary), once each: where a
    // card's later version is a line of its own (IRC), it is the same card.
    const titled = async (title: string) => {
      const found = (await d.shown()).filter((m) => readable(m).includes(title));
      return found.filter((m, i) => found.findIndex((other) => other.id === m.id) === i);
    };

    await handOn(d, job, 'failed', 1);
    const card = await waitFor(async () => (await titled('ValueError: boom 1'))[0], 60_000);
    expect(card.text).toContain('mytool: job failed');
    await d.press(card.id, "I'm on it", 'admin');
    await waitFor(async () =>
      (await d.shown()).find((m) => m.id === card.id && m.text.includes('is on it: repeats of this failure')),
    );
    await d.idle();
    // The claim is said once, as the answer to the press.
    await waitFor(() => (d.seen().includes(`is on it: mytool job ${job}`) ? true : undefined));

    for (let n = 2; n <= 6; n++) await handOn(d, job, 'failed', n);
    await settled(d);
    expect(await titled('mytool: job failed')).toHaveLength(1);

    await handOn(d, job, 'running', 7);
    await waitFor(
      async () => (await d.shown()).find((m) => m.id === card.id && m.text.includes('Recovered')),
      60_000,
    );
    await waitFor(async () => ((await titled('mytool: job running')).length > 0 ? true : undefined), 60_000);
    await settled(d);
    expect(await titled('mytool: job running')).toHaveLength(1);
    // The one failure card, now saying the job recovered; none of the repeats was posted.
    expect((await titled('ValueError: boom')).map((m) => m.id)).toEqual([card.id]);
    expect((await titled(`mytool: job ${job} recovered`)).map((m) => m.id)).toEqual([card.id]);

    const records = await auditSince(d, 'mytool', since, (found) =>
      found.some((e) => e.command === 'tool claim'),
    );
    expect(records.filter((e) => e.command === 'tool claim').map((e) => [e.platform, e.outcome])).toEqual([
      [d.platform, 'ok'],
    ]);
    expect(d.violations()).toEqual([]);
  });
});
