import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/reply';
import { button, startTestApp, type TestApp } from '../support/app';
import { linkDirectly, slackUser } from '../support/oauth-web';
import { waitFor } from '../support/wait';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  await linkDirectly(t.app, slackUser('UMONA'), 'mona', ['read:user', 'repo', 'admin:org']);
});
afterAll(async () => {
  await t.close();
});

const archiveLinks = () =>
  [...t.transcript.posted, ...t.transcript.updates.map((u) => u.card)].filter((c) =>
    JSON.stringify(c).includes('/_archives/'),
  );
const announcements = (id: string) =>
  t.transcript.posted.filter((c) => c.title === `Migration ${id} exported`);
const jobDone = async (id: string) => {
  const job = await t.app.queues.migration.getJob(`migration|toolforge-repos|${id}`);
  return job ? await job.isCompleted() : false;
};

describe('/source migration', () => {
  it('is started from a channel, followed to exported, announced once; the archive link is only sent privately', async () => {
    const [started] = await t.say(
      '/source migration start toolforge-repos mytool demo --lock --exclude-attachments',
      {
        user: 'UMONA',
      },
    );
    expect(started?.title).toMatch(/^Migration \d+$/);
    expect(started?.status).toBe('progress');
    expect(started?.fields).toContainEqual({
      label: 'Options',
      value: 'locked, no attachments',
      inline: true,
    });
    const id = String(started?.title).split(' ')[1] as string;

    const announced = await waitFor(() => announcements(id)[0], 15_000);
    await waitFor(() => jobDone(id));
    expect(announced.text).toContain('The archive link is sent only privately');
    const finalCard = t.transcript.updates.at(-1)?.card as Card;
    expect(finalCard.fields?.[0]?.value).toBe('exported');
    // Asking to follow the same migration again changes nothing: it is announced once.
    await t.app.services.accounts.followMigration({
      owner: 'toolforge-repos',
      id: Number(id),
      user: { ...slackUser('UMONA') },
      conversationId: 'slack:T1:C1',
      isPrivate: false,
    });
    await new Promise((done) => setTimeout(done, 200));
    expect(announcements(id)).toHaveLength(1);
    expect(archiveLinks()).toEqual([]);

    const [link] = await t.press(button(announced, 'Archive link'), { user: 'UMONA' });
    expect(link?.visibility).toBe('private');
    expect(link?.links?.[0]?.url).toMatch(/\/_archives\/[0-9a-f]{32}\.tar\.gz$/);
    const download = await fetch(link?.links?.[0]?.url as string);
    expect(download.headers.get('content-type')).toBe('application/gzip');
    expect(archiveLinks().every((c) => c.visibility === 'private')).toBe(true);
  });

  it('started in a private conversation, the archive link is posted there when exported', async () => {
    const before = t.transcript.posted.length;
    const [started] = await t.say('/source migration start @me mona/notes', { user: 'UMONA', private: true });
    const id = String(started?.title).split(' ')[1] as string;
    const link = await waitFor(
      () => t.transcript.posted.slice(before).find((c) => c.title === `Archive of migration ${id}`),
      15_000,
    );
    expect(link.links?.[0]?.url).toContain('/_archives/');
  });

  it('list, show, repos, unlock and delete-archive; a locked repository is unlocked once', async () => {
    const [list] = await t.say('/source migration list toolforge-repos --per-page 5', { user: 'UMONA' });
    expect(list?.code?.text).toMatch(/^ID\s+STATE\s+CREATED \(UTC\)\s+REPOSITORIES/);
    const id = /\n(\d+)\s+exported/.exec(list?.code?.text ?? '')?.[1] as string;
    expect(id).toBeDefined();
    const [shown] = await t.say(`/source migration show toolforge-repos ${id}`, { user: 'UMONA' });
    expect(shown?.fields?.[1]?.value).toBe('toolforge-repos/mytool, toolforge-repos/demo');
    const [repos] = await t.say(`/source migration repos toolforge-repos ${id}`, { user: 'UMONA' });
    expect(repos?.text).toBe('toolforge-repos/mytool\ntoolforge-repos/demo');
    const [unlocked] = await t.say(`/source migration unlock toolforge-repos ${id} mytool`, {
      user: 'UMONA',
    });
    expect(unlocked?.text).toBe('Unlocked mytool.');
    const [again] = await t.say(`/source migration unlock toolforge-repos ${id} mytool`, { user: 'UMONA' });
    expect(again?.text).toBe(`mytool is not locked by migration ${id} (already unlocked).`);
    const [stranger] = await t.say(`/source migration unlock toolforge-repos ${id} other`, { user: 'UMONA' });
    expect(stranger?.text).toBe(
      `other is not one of the repositories of migration ${id}: toolforge-repos/mytool, toolforge-repos/demo.`,
    );
    expect(shown?.buttons?.map((b) => b.label)).toEqual(['Archive link']);
    const [ask] = await t.say(`/source migration delete-archive toolforge-repos ${id}`, { user: 'UMONA' });
    const [deleted] = await t.press(button(ask, 'Confirm'), { user: 'UMONA' });
    expect(deleted?.text).toBe(`Deleted the archive of migration ${id}.`);
    // After the delete, show no longer offers the link, and says why.
    const [after] = await t.say(`/source migration show toolforge-repos ${id}`, { user: 'UMONA' });
    expect(after?.buttons ?? []).toEqual([]);
    expect(after?.text).toContain('is exported, but its archive is gone: it was deleted');
    const [link] = await t.say(`/source migration archive toolforge-repos ${id}`, { user: 'UMONA' });
    // On Slack, command references read `/deckhand source …` (the one Slack command).
    expect(link?.text).toMatch(
      new RegExp(
        `^Migration ${id} of toolforge-repos has no archive any more: it was deleted \\(/(deckhand )?source migration delete-archive\\) or expired \\(archives are kept 7 days\\)\\.$`,
      ),
    );
    const [twice] = await t.say(`/source migration delete-archive toolforge-repos ${id}`, { user: 'UMONA' });
    const [second] = await t.press(button(twice, 'Confirm'), { user: 'UMONA' });
    expect(second?.text).toContain('has no archive any more');
    const [none] = await t.say('/source migration show toolforge-repos 999999', { user: 'UMONA' });
    expect(none?.text).toMatch(
      /^There is no migration 999999 of toolforge-repos that your account can see\.\nList them with \/(deckhand )?source migration list toolforge-repos\.$/,
    );
    const everything = JSON.stringify([...t.transcript.posted, ...t.transcript.updates]);
    expect(everything).not.toMatch(/"Not Found"|: Not Found/);
  });

  it('bad input gets a specific message and starts nothing', async () => {
    const count = (await t.app.emulators.sourcehost?.state.migrations.size) ?? 0;
    const cases: [string, RegExp][] = [
      ['/source migration start toolforge-repos', /Missing <repos>/],
      ['/source migration start not_an_org! mytool', /must be @me \(your account\) or an organization name/],
      ['/source migration start toolforge-repos mona/notes', /without the owner/],
      ['/source migration start toolforge-repos mytool --exclude labels', /Invalid --exclude/],
      [
        '/source migration start toolforge-repos nothing-here',
        /nothing-here is not a repository you can migrate/,
      ],
      ['/source migration show toolforge-repos abc', /Invalid <id>/],
    ];
    for (const [line, expected] of cases) {
      const [card] = await t.say(line, { user: 'UMONA' });
      expect(card?.text, line).toMatch(expected);
    }
    expect(t.app.emulators.sourcehost?.state.migrations.size).toBe(count);
  });

  it('a link without the needed scope asks to link again with it, and runs the command after', async () => {
    await linkDirectly(t.app, slackUser('USMALL'), 'mona', ['read:user']);
    const [card] = await t.say('/source migration start toolforge-repos mytool', { user: 'USMALL' });
    expect(card?.text).toContain(
      'needs more permissions than your link to mona has (missing: repo, admin:org)',
    );
    // The link is Deckhand's start link (test/browser/oauth.test.ts follows one to the authorize
    // page, whose scope is the one asked here).
    expect(card?.links?.[0]?.url).toMatch(/\/oauth\/source\/start\/[A-Za-z0-9_-]{43}$/);
    expect(card?.fields).toContainEqual({ label: 'Permissions asked', value: 'read:user, repo, admin:org' });
  });
});
