import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { posted, runShellScript } from '../support/cli';

/** The path the terminal chat wrote a card's attachment to. */
const writtenFile = (card: string) => /\(file written: (.+)\)/.exec(card)?.[1] as string;

type Entry = Record<string, unknown> & { name: string };
const byName = (entries: Entry[]) => [...entries].sort((a, b) => a.name.localeCompare(b.name));

describe('deckhand shell: /jobs dump and /jobs load', () => {
  it('loads a dump with one job changed and one removed: the plan says so, and the jobs then match the file', async () => {
    const dump = await runShellScript('/jobs dump mytool\n', { wait: 10 });
    expect(dump.code, dump.stderr).toBe(0);
    const entries = parse(readFileSync(writtenFile(posted(dump.stdout, 1)), 'utf8')) as Entry[];
    expect(entries.map((e) => e.name).sort()).toEqual(['daily-report', 'migrate-db', 'web']);

    const wanted = entries
      .filter((e) => e.name !== 'migrate-db')
      .map((e) => (e.name === 'web' ? { ...e, command: 'web --workers 2', mem: '1Gi' } : e));
    const file = join(dump.dataDir, 'jobs-edited.yaml');
    writeFileSync(file, stringify(wanted));

    const run = await runShellScript(
      `/jobs load mytool --file ${file}\n1\n/jobs list mytool\n/jobs dump mytool\n/jobs load mytool --file ${file}\n`,
      { wait: 30 },
    );
    expect(run.stderr).not.toMatch(/Error|at .*\.ts/);
    expect(run.code, run.stdout).toBe(0);
    const [ask, applied, list, again, noop] = [1, 2, 3, 4, 5].map((n) => posted(run.stdout, n)) as [
      string,
      string,
      string,
      string,
      string,
    ];
    expect(ask).toContain('Plan: 0 to create, 1 to update, 1 to delete, 1 unchanged.');
    expect(ask).toMatch(/update\s+web\s+changes cmd, memory/);
    expect(ask).toMatch(/delete\s+migrate-db\s+not in the file/);
    expect(ask).toMatch(/keep\s+daily-report\s+unchanged/);
    expect(applied).toContain('Done: 0 created, 1 updated, 1 deleted, 1 unchanged.');
    expect(list).not.toContain('migrate-db');
    expect(list).toMatch(/web\s+continuous/);
    expect(list).toMatch(/daily-report\s+scheduled/);

    const after = parse(readFileSync(writtenFile(again), 'utf8')) as Entry[];
    // The platform stores memory rewritten (1Gi may come back as 1.0Gi): the same amount.
    const web = after.find((e) => e.name === 'web') as Entry;
    expect(web.mem).toMatch(/^1(\.0)?Gi$/);
    expect(byName(after.map((e) => ({ ...e, mem: e.name === 'web' ? '1Gi' : e.mem })))).toEqual(
      byName(wanted.map((e) => ({ ...e, mem: e.name === 'web' ? '1Gi' : e.mem }))),
    );
    expect(noop).toContain('The jobs of mytool already match the file: nothing to do.');
  });

  it("--from-repo loads the sandbox repository's jobs.yaml: 1 to create, 1 to delete, and the list matches", async () => {
    const run = await runShellScript('/jobs load mytool --from-repo\n1\n/jobs list mytool\n', { wait: 20 });
    expect(run.stderr).not.toMatch(/Error|at .*\.ts/);
    expect(run.code, run.stdout).toBe(0);
    const [ask, applied, list] = [1, 2, 3].map((n) => posted(run.stdout, n)) as [string, string, string];
    expect(ask).toContain('From jobs.yaml of toolforge-repos/mytool at main.');
    expect(ask).toContain('Plan: 1 to create, 0 to update, 1 to delete, 2 unchanged.');
    expect(applied).toContain('Done: 1 created, 0 updated, 1 deleted, 2 unchanged.');
    expect(list).toMatch(/weekly-cleanup\s+scheduled/);
    expect(list).not.toContain('migrate-db');
  });

  it('refuses a jobs file with an unknown option or a bad schedule before asking, and changes nothing', async () => {
    const dir = (await runShellScript('', { wait: 1 })).dataDir;
    const unknown = join(dir, 'unknown.yaml');
    const badCron = join(dir, 'cron.yaml');
    writeFileSync(
      unknown,
      stringify([{ name: 'web', command: 'web', image: 'python3.11', restart: 'always' }]),
    );
    writeFileSync(
      badCron,
      stringify([{ name: 'x', command: 'x', image: 'python3.11', schedule: '@midnight' }]),
    );
    const run = await runShellScript(
      `/jobs load mytool --file ${unknown}\n/jobs load mytool --file ${badCron}\n/jobs list mytool\n`,
      { wait: 10 },
    );
    const [first, second, list] = [1, 2, 3].map((n) => posted(run.stdout, n));
    expect(first).toContain("Unknown option 'restart' in job web.");
    expect(second).toContain('job x: invalid schedule');
    expect(run.stdout).not.toContain('Please confirm');
    expect(list).toContain('migrate-db');
  });
});
