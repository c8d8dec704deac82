/**
 * A failure someone can claim, against the emulated platform: a subscribed tool's continuous job
 * starts crashing; its announcement carries the last log lines, the exit code, the restarts and the
 * buttons; I'm on it names the person on the card; the job failing again and again is not announced
 * while claimed; its recovery edits the card and is announced once.
 */
import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/reply';
import type { WatchEvent } from '../../src/core/watch';
import { notifyJobId } from '../../src/queue/queues';
import { jobRestarts, type ToolhostClientFactory } from '../../src/services/toolhost';
import { button, settled, type TestApp } from '../support/app';
import { useToolhostApp } from '../support/toolhost-app';
import { waitFor } from '../support/wait';

let t: TestApp;
let platform: ToolhostClientFactory;

useToolhostApp((started) => {
  ({ t, platform } = started);
});

const JOB = 'crashy';
const job = (cmd: string) =>
  ({
    job_type: 'continuous',
    name: JOB,
    cmd,
    imagename: 'python3.11',
    filelog: false,
  }) as const;

const posts = (title: string) => t.transcript.posted.filter((card) => card.title === title);
const text = (card: Card | undefined) => JSON.stringify(card ?? {});

describe('a failure someone can claim', () => {
  it('silences the repeats of a claimed failure; its recovery edits the card and is announced once', async () => {
    const mytool = platform.forTool('mytool');
    const jobState = `${t.app.services.config.REDIS_KEY_PREFIX}jobstate:mytool`;
    await t.say('/subscribe mytool jobs');
    await mytool.jobs.create(job('python3 app.py'));
    // Discovery has seen it running: its crash is news.
    await waitFor(async () => (await t.app.redis.redis.hget(jobState, JOB))?.startsWith('running|'), 20_000);
    await mytool.jobs.update(job('python3 app.py --fail'));
    const failed = await waitFor(() => posts('mytool: job failed')[0], 20_000);
    expect(failed.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: 'Exit code', value: '1' }),
        expect.objectContaining({ label: 'Restarts' }),
      ]),
    );
    expect(failed.code?.text).toBeTruthy();
    expect(failed.buttons?.map((b) => b.label)).toEqual(['Restart', 'Logs', 'Show', "I'm on it"]);

    // A stranger cannot claim it; two maintainers pressing at once leave one claim.
    const [refused] = await t.press(button(failed, "I'm on it"), { user: 'USTRANGER' });
    expect(refused?.text).toContain('Only maintainers of mytool');
    const [a, b] = await Promise.all([
      t.press(button(failed, "I'm on it"), { user: 'UMAINT' }),
      t.press(button(failed, "I'm on it"), { user: 'UADMIN' }),
    ]);
    const answers = [...(a ?? []), ...(b ?? [])];
    const taken = answers.filter((card) => card.title?.endsWith('is on it: mytool job crashy'));
    expect(taken).toHaveLength(1);
    const holder = taken[0]?.title?.split(' ')[0] as string;
    expect(answers.map((card) => card.text).join('\n')).toContain(`${holder} is on it already`);
    const claimed = await waitFor(() =>
      t.transcript.updates.find((u) => text(u.card).includes(`${holder} is on it: repeats`)),
    );
    expect(claimed.card.buttons?.map((x) => x.label)).toEqual([
      'Restart',
      'Logs',
      'Show',
      'Hand off',
      'Release',
    ]);

    // Five more failures: each restart crash-loops until the platform gives up again. Discovery may
    // or may not look while the job runs between them; the five flips it would hand on when it does
    // (running, then failed again) are handed on here too, so the five repeats surely happen.
    const serial = async () => Number((await t.app.redis.redis.hget(jobState, JOB))?.split('|')[1]);
    const restartsOf = async () => jobRestarts(await mytool.jobs.show(JOB)) ?? 0;
    const flip = async (to: 'running' | 'failed', n: number) => {
      const event: WatchEvent = {
        tool: 'mytool',
        kind: 'job',
        id: JOB,
        from: to === 'failed' ? 'running' : 'failed',
        to,
        at: Date.now(),
        detail: `Job ${JOB} (continuous) is ${to}.`,
        outcome: to === 'failed' ? 'failure' : 'success',
        terminal: false,
        serial: 1000 + n,
      };
      await t.app.queues.notify.add('event', event, { jobId: notifyJobId(event) });
    };
    for (let i = 0; i < 5; i++) {
      const before = await restartsOf();
      await mytool.jobs.restart(JOB);
      await flip('running', 2 * i);
      await flip('failed', 2 * i + 1);
      await waitFor(async () => {
        const shown = await mytool.jobs.show(JOB);
        return shown.status?.short === 'failed' && (await restartsOf()) > before ? true : undefined;
      }, 20_000);
    }
    await settled(t.app);
    expect(await serial()).toBeGreaterThanOrEqual(2);
    expect(posts('mytool: job failed')).toHaveLength(1);
    expect(posts('mytool: job running')).toHaveLength(0);

    // It is fixed: running, and still running after the quiet time, is its recovery.
    await mytool.jobs.update(job('python3 app.py'));
    await waitFor(() => (posts('mytool: job running').length > 0 ? true : undefined), 20_000);
    await settled(t.app);
    expect(posts('mytool: job running')).toHaveLength(1);
    const recovered = t.transcript.updates.filter((u) => text(u.card).includes('Recovered'));
    expect(recovered.length).toBeGreaterThan(0);
    expect(text(recovered.at(-1)?.card)).toContain('Was on it');
    expect(recovered.at(-1)?.card.buttons?.map((x) => x.label)).toEqual(['Logs', 'Show']);

    // The claim ended with the recovery; the claim is one change record.
    const [nothing] = await t.say('/tool claim mytool --job crashy', { user: 'UMAINT' });
    expect(nothing?.text).toContain('there is nothing to claim');
    const records = (await t.app.services.accounts.audit.recent({ tool: 'mytool', limit: 50 })).filter(
      (e) => e.command === 'tool claim',
    );
    // Newest first: the stranger's refused press is recorded too, as refused.
    expect(records.map((e) => [e.name, e.outcome])).toEqual([
      [holder, 'ok'],
      ['USTRANGER', 'permission'],
    ]);
  });
});
