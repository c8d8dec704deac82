/**
 * `/jobs load <tool> --from-repo`: the jobs file of the tool's source repository (its components
 * configuration's build repository on the source host), read through the contents API, with the
 * same plan and confirmation as an attached file; every bad input refused before the confirmation.
 */

import type { SourcehostSandbox } from '@deckhand/sandbox/sourcehost';
import { putFiles } from '@deckhand/sandbox/sourcehost/contents';
import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/reply';
import type { Job, ToolhostClientFactory } from '../../src/services/toolhost';
import { button, type TestApp } from '../support/app';
import { useToolhostApp } from '../support/toolhost-app';

let t: TestApp;
let platform: ToolhostClientFactory;
let sourcehost: SourcehostSandbox;

useToolhostApp((started) => {
  ({ t, platform } = started);
  sourcehost = t.app.emulators.sourcehost as SourcehostSandbox;
});

const jobsOf = async (tool: string): Promise<Job[]> =>
  (await platform.forTool(tool).jobs.list({ includeUnset: false })).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
const cardText = (card: Card | undefined) => [card?.title, card?.text].join(' ');

describe('/jobs load --from-repo', () => {
  it("shows the plan of the repository's jobs.yaml; after Confirm /jobs list matches the file", async () => {
    const [ask] = await t.say('/jobs load mytool --from-repo', { user: 'UMAINT' });
    expect(ask?.title).toBe('Please confirm');
    expect(ask?.text).toContain('From jobs.yaml of toolforge-repos/mytool at main.');
    expect(ask?.text).toContain('Plan: 1 to create, 0 to update, 1 to delete, 2 unchanged.');
    expect(ask?.code?.text).toMatch(/create\s+weekly-cleanup\s+scheduled/);
    expect(ask?.code?.text).toMatch(/delete\s+migrate-db\s+not in the file/);
    // Nothing is applied before Confirm.
    expect((await jobsOf('mytool')).map((j) => j.name)).toEqual(['daily-report', 'migrate-db', 'web']);

    const [done] = await t.press(button(ask, 'Confirm'), { user: 'UMAINT' });
    expect(done?.text).toContain('Done: 1 created, 0 updated, 1 deleted, 2 unchanged.');
    const jobs = await jobsOf('mytool');
    expect(jobs.map((j) => j.name)).toEqual(['daily-report', 'web', 'weekly-cleanup']);
    expect(jobs.find((j) => j.name === 'weekly-cleanup')).toMatchObject({
      cmd: './cleanup.sh --older-than 30d',
      imagename: 'tool-mytool/web:latest',
      schedule: '0 3 * * 0',
    });
    const [list] = await t.say('/jobs list mytool', { user: 'UMAINT' });
    const listed = JSON.stringify(list);
    expect(listed).toContain('weekly-cleanup');
    expect(listed).not.toContain('migrate-db');

    const [again] = await t.say('/jobs load mytool --from-repo', { user: 'UMAINT' });
    expect(again?.text).toContain('The jobs of mytool already match the file: nothing to do.');
  });

  it('reads another path at another ref', async () => {
    putFiles(
      sourcehost.state,
      'toolforge-repos/mytool',
      {
        'deploy/jobs.yaml': '- name: hello\n  command: echo hi\n  image: python3.11\n  schedule: "@hourly"\n',
      },
      'staging',
    );
    const [ask] = await t.say(
      '/jobs load mytool --from-repo --path deploy/jobs.yaml --ref staging --job hello',
      {
        user: 'UMAINT',
      },
    );
    expect(ask?.text).toContain('From deploy/jobs.yaml of toolforge-repos/mytool at staging.');
    expect(ask?.text).toContain('Plan: 1 to create, 0 to update, 0 to delete, 0 unchanged.');
  });

  it('refuses every bad input with a message naming the path and ref, before asking; nothing changes', async () => {
    putFiles(sourcehost.state, 'toolforge-repos/mytool', {
      'broken.yaml': '- name: a\n  command: [unclosed\n',
      'huge.yaml': `# ${'x'.repeat(300 * 1024)}\n`,
    });
    const before = JSON.stringify(await jobsOf('mytool'));
    const cases: [string, string][] = [
      [
        '/jobs load mytool --from-repo --path deploy/jobs.yaml',
        'There is no deploy/jobs.yaml in toolforge-repos/mytool at main.',
      ],
      [
        '/jobs load mytool --from-repo --ref nosuch',
        'toolforge-repos/mytool has no branch, tag or commit nosuch.',
      ],
      [
        '/jobs load mytool --from-repo --path mytool',
        'mytool in toolforge-repos/mytool at main is a directory, not a file.',
      ],
      [
        '/jobs load mytool --from-repo --path broken.yaml',
        'broken.yaml of toolforge-repos/mytool at main is not valid YAML or JSON',
      ],
      [
        '/jobs load mytool --from-repo --path huge.yaml',
        'huge.yaml of toolforge-repos/mytool at main is 301 KiB, over 256 KiB',
      ],
      ['/jobs load mytool --from-repo --path ../etc/passwd', 'is not a file path inside the repository'],
      ['/jobs load mytool --path jobs.yaml', '--path goes with --from-repo.'],
      ['/jobs load mytool --from-repo --job nosuch', 'Job nosuch is not in the file.'],
    ];
    for (const [line, message] of cases) {
      const [card] = await t.say(line, { user: 'UMAINT' });
      expect(cardText(card), line).toContain(message);
      expect(card?.title, line).not.toBe('Please confirm');
    }
    expect(JSON.stringify(await jobsOf('mytool'))).toBe(before);
  });

  it('says when the repository holds no jobs file, and when it is not on the source host or unknown', async () => {
    const [none] = await t.say('/jobs load demo --from-repo');
    expect(cardText(none)).toContain('There is no jobs.yaml in toolforge-repos/demo at main.');

    const demo = platform.forTool('demo');
    const config = await demo.components.getConfig();
    await demo.components.setConfig({
      ...config,
      components: {
        api: {
          ...(config.components?.api as object),
          build: { repository: 'https://git.example.org/someone/demo', ref: 'main' },
        },
      },
    } as never);
    const [elsewhere] = await t.say('/jobs load demo --from-repo');
    expect(cardText(elsewhere)).toContain(
      'The source of demo is https://git.example.org/someone/demo, which is not on the source host',
    );

    await demo.components.deleteConfig();
    for (const build of await demo.builds.list()) await demo.builds.delete(build.build_id as string);
    const [unknown] = await t.say('/jobs load demo --from-repo');
    expect(cardText(unknown)).toContain('Deckhand does not know the source repository of demo');
    expect(cardText(unknown)).toMatch(/Attach the jobs file to \/(deckhand )?jobs load instead/);
  });
});
