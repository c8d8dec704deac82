import { describe, expect, it } from 'vitest';
import type { Job, ToolhostClientFactory } from '../../src/services/toolhost';
import { button, type TestApp } from '../support/app';
import { useToolhostApp } from '../support/toolhost-app';

let t: TestApp;
let platform: ToolhostClientFactory;

useToolhostApp((started) => {
  ({ t, platform } = started);
});

const definition = async (name: string): Promise<Job | undefined> =>
  (await platform.forTool('mytool').jobs.list({ includeUnset: false })).find((j) => j.name === name);

describe('/jobs update', () => {
  it('changes only the given fields: the rest of the definition stays as it was', async () => {
    await t.say(
      '/jobs run mytool api --command "./serve" --image python3.11 --continuous --port 8080 --mem 1Gi --emails onfailure',
    );
    const before = await definition('api');
    expect(before?.port).toBe(8080);
    const [card] = await t.say('/jobs update mytool api --replicas 2');
    expect(card?.text).toContain('Updated replicas.');
    const after = await definition('api');
    expect(after).toMatchObject({
      cmd: './serve',
      port: 8080,
      emails: 'onfailure',
      replicas: 2,
      memory: before?.memory,
    });
  });

  it('says when nothing changed', async () => {
    const [card] = await t.say('/jobs update mytool api --replicas 2');
    expect(card?.text).toContain('Nothing changed: Job api is already up to date');
  });

  it('refuses, before anything is sent: one-off jobs, options of another job type, no option, a bad schedule', async () => {
    const before = JSON.stringify(await platform.forTool('mytool').jobs.list({ includeUnset: false }));
    const cases: [string, string][] = [
      [
        '/jobs update mytool migrate-db --mem 1Gi',
        'migrate-db is a one-off job, and the platform cannot update those in place.',
      ],
      [
        '/jobs update mytool web --schedule "0 * * * *"',
        '--schedule does not apply to web, a continuous job.',
      ],
      ['/jobs update mytool web', 'Say what to change'],
      [
        '/jobs update mytool daily-report --schedule "0 0 * * 1-7"',
        'Invalid --schedule: the day of week field `1-7` must stay within 0-6',
      ],
      ['/jobs update mytool nosuchjob --mem 1Gi', 'Job nosuchjob of mytool does not exist.'],
      ['/jobs update mytool web --filelog --no-filelog', 'Choose --filelog or --no-filelog, not both.'],
    ];
    for (const [line, message] of cases) {
      const [card] = await t.say(line);
      expect(card?.text, line).toContain(message);
    }
    expect(JSON.stringify(await platform.forTool('mytool').jobs.list({ includeUnset: false }))).toBe(before);
  });

  it('changes a schedule in place, accepting day names as the platform does', async () => {
    const [card] = await t.say('/jobs update mytool daily-report --schedule "30 4 * * mon"');
    expect(card?.text).toContain('Updated schedule.');
    expect((await definition('daily-report'))?.schedule).toBe('30 4 * * mon');
  });
});

describe('where a job writes its output', () => {
  it('a one-off job with file logs: the card names ~/<job>.out and .err, offers no Restart, and /logs says so', async () => {
    const [card] = await t.say('/jobs run mytool hello --command "echo hi" --image python3.11');
    expect(card?.fields?.find((f) => f.label === 'Output')?.value).toBe(
      'files ~/hello.out (output) and ~/hello.err (errors)',
    );
    expect(card?.buttons?.map((b) => b.label)).toEqual(['Logs', 'Delete']);
    const [logs] = await t.say('/logs mytool hello');
    expect(logs?.text).toContain(
      "Job hello writes its output to files ~/hello.out (output) and ~/hello.err (errors) in the tool's home",
    );
  });

  it('--no-filelog sends the output to the log service, and the card says so', async () => {
    const [card] = await t.say('/jobs run mytool hello2 --command "echo hi" --image python3.11 --no-filelog');
    expect(card?.fields?.find((f) => f.label === 'Output')?.value).toBe(
      'the log service (/deckhand logs mytool hello2)',
    );
    expect((await definition('hello2'))?.filelog).toBe(false);
  });

  it('--filelog-stdout and --filelog-stderr set the files', async () => {
    const [card] = await t.say(
      '/jobs run mytool hello3 --command "echo hi" --image python3.11 --filelog --filelog-stdout logs/h.out --filelog-stderr logs/h.err',
    );
    expect(card?.fields?.find((f) => f.label === 'Output')?.value).toBe(
      'files ~/logs/h.out (output) and ~/logs/h.err (errors)',
    );
  });

  it('a continuous job keeps its Restart button', async () => {
    const [card] = await t.say('/jobs show mytool web');
    expect(card?.buttons?.map((b) => b.label)).toContain('Restart');
  });
});

describe('/jobs load (arguments as the Confirm button stores them)', () => {
  it('recreates a changed one-off job (the platform cannot update one in place) and keeps the others', async () => {
    const client = platform.forTool('mytool');
    const { jobToEntry } = await import('../../commands/toolhost/jobs-file');
    const entries = (await client.jobs.list({ includeUnset: false })).map(jobToEntry);
    const wanted = entries.map((e) =>
      e.name === 'migrate-db' ? { ...e, command: './manage.py migrate --plan' } : e,
    );
    const [ask] = await t.say(`/jobs load mytool --content '${JSON.stringify(wanted)}'`, { user: 'UMAINT' });
    expect(ask?.text).toContain('Plan: 0 to create, 1 to update, 0 to delete');
    expect(ask?.code?.text).toMatch(/update\s+migrate-db\s+changes cmd/);
    const [done] = await t.press(button(ask, 'Confirm'), { user: 'UMAINT' });
    expect(done?.code?.text).toMatch(
      /recreate\s+migrate-db\s+created \(one-off jobs cannot be updated in place\)/,
    );
    expect((await definition('migrate-db'))?.cmd).toBe('./manage.py migrate --plan');
  });
});
