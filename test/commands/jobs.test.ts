import { describe, expect, it } from 'vitest';
import type { Job, ToolhostClientFactory } from '../../src/services/toolhost';
import { button, type TestApp } from '../support/app';
import { useToolhostApp } from '../support/toolhost-app';
import { waitFor } from '../support/wait';

let t: TestApp;
let platform: ToolhostClientFactory;

useToolhostApp((started) => {
  ({ t, platform } = started);
});

const job = (name: string): Promise<Job> => platform.forTool('mytool').jobs.show(name);

describe('/jobs', () => {
  it('lists the jobs with their type and state', async () => {
    const [card] = await t.say('/jobs list mytool');
    expect(card?.code?.text).toMatch(/web\s+continuous\s+running/);
    expect(card?.code?.text).toMatch(/daily-report\s+scheduled\s+\S+\s+@daily/);
    expect(card?.code?.text).toMatch(/migrate-db\s+one-off\s+succeeded/);
  });

  it('restarts a job from its card button, and the restart shows in its status', async () => {
    const [card] = await t.say('/jobs show mytool web');
    expect(card?.buttons?.map((b) => b.label)).toEqual(['Restart', 'Logs', 'Delete']);
    const before = (await job('web')).status?.messages ?? [];
    const [after] = await t.press(button(card, 'Restart'));
    expect(after?.text).toContain('restarted');
    expect(after?.fields?.find((f) => f.label === 'Status')?.value).toMatch(/restarted \(\d+\)/);
    const now = (await job('web')).status?.messages ?? [];
    expect(now.join(' ')).toMatch(/restarted \(\d+\)/);
    expect(now).not.toEqual(before);
  });

  it('refuses a restart to a stranger and changes nothing', async () => {
    // The restart count, not the whole status: the job may be moving from pending to running on its own.
    const restarts = async () =>
      /restarted \((\d+)\)/.exec((await job('web')).status?.messages?.join(' ') ?? '')?.[1] ?? '0';
    const before = await restarts();
    const [card] = await t.say('/jobs restart mytool web', { user: 'USTRANGER' });
    expect(card?.text).toContain('Only maintainers of mytool');
    expect(await restarts()).toBe(before);
  });

  it('creates a one-off job and follows it to success with --wait', async () => {
    const cards = await t.say('/jobs run mytool hello --command "echo hi" --image python3.11 --wait');
    expect(cards[0]?.text).toContain('Job hello created.');
    const done = await waitFor(
      () =>
        t.transcript.updates.find(
          (u) => u.card.title === 'Job hello of mytool' && /succeeded/.test(JSON.stringify(u.card.fields)),
        ),
      10_000,
    );
    expect(done.card.status).toBe('success');
    await waitFor(async () => (await t.app.services.watches.activeCount()) === 0);
  });

  it('creates a scheduled job with a valid cron schedule', async () => {
    const [card] = await t.say(
      '/jobs run mytool nightly-sync --command "./sync.sh" --image python3.11 --schedule "15 3 * * 1-5"',
    );
    expect(card?.text).toContain('Job nightly-sync created.');
    expect((await job('nightly-sync')).schedule).toBe('15 3 * * 1-5');
  });

  it('says so when a job name is taken, and how to change that job instead', async () => {
    const [card] = await t.say('/jobs run mytool web --command web --image python3.11 --continuous');
    expect(card?.status).toBe('warning');
    expect(card?.text).toMatch(/already has a continuous job named web/);
  });

  it.each([
    [
      '/jobs run mytool x1 --command c --image python3.11 --schedule "61 * * * *"',
      /minute field `61` must stay within 0-59/,
    ],
    ['/jobs run mytool x1 --command c --image python3.11 --schedule "* * *"', /has 5 fields/],
    ['/jobs run mytool x1 --command c --image python3.11 --schedule @fortnightly', /not a schedule macro/],
    [
      '/jobs run mytool Bad_Name --command c --image python3.11',
      /Invalid <name>: must be lower-case letters/,
    ],
    [
      '/jobs run mytool x1 --command c --image python3.11 --port 80',
      /--port only applies to continuous jobs/,
    ],
    [
      '/jobs run mytool x1 --command c --image python3.11 --continuous --retry 2',
      /--retry does not apply to continuous jobs/,
    ],
    [
      '/jobs run mytool x1 --command c --image python3.11 --continuous --health-check-http /h',
      /needs --port/,
    ],
    [
      '/jobs run mytool x1 --command c --image python3.11 --mem lots',
      /Invalid --mem: must be a memory amount/,
    ],
    [
      '/jobs run mytool x1 --command c --image python3.11 --mount none',
      /--mount none only works with images built/,
    ],
    ['/jobs run mytool x1 --image python3.11', /Missing --command/],
    ['/jobs restart mytool nosuchjob', /nosuchjob/],
  ])('%s → a clear message, nothing created', async (line, expected) => {
    const before = (await platform.forTool('mytool').jobs.list()).map((j) => j.name).sort();
    const [card] = await t.say(line);
    expect(card?.text).toMatch(expected);
    expect(card?.text).not.toMatch(/ERR-|\n\s+at /);
    expect((await platform.forTool('mytool').jobs.list()).map((j) => j.name).sort()).toEqual(before);
  });

  it('asks before deleting a job, and deletes it after Confirm', async () => {
    await t.say('/jobs run mytool temp --command c --image python3.11');
    const [ask] = await t.say('/jobs delete mytool temp');
    expect(ask?.text).toBe('Stop and delete job temp of mytool?');
    expect((await job('temp')).name).toBe('temp');
    await t.press(button(ask, 'Confirm'));
    await expect(job('temp')).rejects.toThrow(/not found/i);
  });
});
