import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliveryDigest } from '../../src/web/oauth-routes';
import { button, settled, type TestApp } from '../support/app';
import { type AccountWeb, linkDirectly, slackUser, useAccountWebApp } from '../support/oauth-web';
import { waitFor } from '../support/wait';

let t: TestApp;
let web: AccountWeb;

useAccountWebApp((started) => {
  ({ t, web } = started);
});
beforeAll(async () => {
  await linkDirectly(t.app, slackUser('UMONA'), 'mona', ['read:user', 'repo']);
});

const importAnnouncements = () =>
  t.transcript.posted.filter((c) => c.title === 'mona/legacy-svn: import success');
const sandbox = () => t.app.emulators.sourcehost as NonNullable<typeof t.app.emulators.sourcehost>;

function post(body: string, headers: Record<string, string>) {
  return fetch(`${web.url}/webhooks/source`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-github-event': 'repository_import', ...headers },
  });
}

describe('the repository_import webhook', () => {
  it('a forged or missing signature is rejected and nothing is announced', async () => {
    // The seeded import has already finished: following it says so, with its result, and waits
    // for the next import instead of promising news about this one.
    const [followed] = await t.say('/source import follow mona/legacy-svn', { user: 'UMONA' });
    expect(followed?.text).toMatch(
      /^The import into mona\/legacy-svn has already ended: it finished \(complete\)\.\n.*\nThis conversation will hear when a new import into mona\/legacy-svn ends\.$/,
    );
    expect(followed?.status).toBe('success');
    const body = JSON.stringify({
      status: 'success',
      repository: { full_name: 'mona/legacy-svn' },
      sender: { login: 'mallory' },
    });
    const forged = await post(body, {
      'x-github-delivery': 'forged-1',
      'x-hub-signature-256': `sha256=${createHmac('sha256', 'not-the-secret').update(body).digest('hex')}`,
    });
    expect(forged.status).toBe(401);
    const unsigned = await post(body, { 'x-github-delivery': 'forged-2' });
    expect(unsigned.status).toBe(401);
    const malformed = await post(body, {
      'x-github-delivery': 'forged-3',
      'x-hub-signature-256': 'sha256=zz',
    });
    expect(malformed.status).toBe(401);
    expect(importAnnouncements()).toEqual([]);
  });

  it('a signed delivery from the source host is announced to the following conversation, once', async () => {
    sandbox().controls.startImport('mona/legacy-svn', 'https://svn.example.org/legacy', 'mona');
    const announced = await waitFor(() => importAnnouncements()[0], 15_000);
    expect(announced.text).toBe('The source import of mona/legacy-svn (started by mona) finished.');
    // The sandbox records a delivery when our answer reaches it, which may come after the
    // announcement was queued and posted: wait for that record, not just the announcement.
    const delivery = await waitFor(() => sandbox().state.deliveries.at(-1), 15_000);
    expect(delivery.status).toBe(202);
    // The same delivery again (a redelivery): accepted, not announced twice.
    const hook = sandbox().state.hooks[0];
    const again = await post(delivery?.body as string, {
      'x-github-delivery': delivery?.id as string,
      'x-hub-signature-256': `sha256=${createHmac('sha256', hook?.secret as string)
        .update(delivery?.body as string)
        .digest('hex')}`,
    });
    expect(again.status).toBe(200);
    await settled(t.app);
    expect(importAnnouncements()).toHaveLength(1);
    // A captured delivery replayed with a fresh X-GitHub-Delivery (which the signature does not
    // cover): the same signed body, so a duplicate, not announced again.
    const sign = (body: string) =>
      `sha256=${createHmac('sha256', hook?.secret as string)
        .update(body)
        .digest('hex')}`;
    for (const id of ['replayed-1', 'replayed-2', 'replayed-3']) {
      const replayed = await post(delivery?.body as string, {
        'x-github-delivery': id,
        'x-hub-signature-256': sign(delivery?.body as string),
      });
      expect(replayed.status).toBe(200);
      expect(await replayed.json()).toEqual({ duplicate: true });
    }
    expect(importAnnouncements()).toHaveLength(1);
    // The same body replayed after its delivery record expired (the week is over: the record is
    // removed here) reaches no one: the import's end was announced and its followers dropped.
    const prefix = t.app.services.config.REDIS_KEY_PREFIX;
    const digest = deliveryDigest('repository_import', Buffer.from(delivery?.body as string));
    expect(await t.app.redis.redis.del(`${prefix}webhook-delivery:${digest}`)).toBe(1);
    const late = await post(delivery?.body as string, {
      'x-github-delivery': 'replayed-after-a-week',
      'x-hub-signature-256': sign(delivery?.body as string),
    });
    expect(late.status).toBe(202);
    await settled(t.app);
    expect(importAnnouncements()).toHaveLength(1);
    expect(await t.app.services.accounts.followers.forRepo('mona/legacy-svn')).toEqual([]);
    // Positive control: following again, another signed body (a later, cancelled import) is announced.
    await t.say('/source import follow mona/legacy-svn', { user: 'UMONA' });
    const cancelled = JSON.stringify({
      ...JSON.parse(delivery?.body as string),
      status: 'cancelled',
    });
    const other = await post(cancelled, {
      'x-github-delivery': 'other-1',
      'x-hub-signature-256': sign(cancelled),
    });
    expect(other.status).toBe(202);
    await waitFor(
      () => t.transcript.posted.some((c) => c.title === 'mona/legacy-svn: import cancelled'),
      15_000,
    );
    const [status] = await t.press(button(announced, 'Status'), { user: 'UMONA' });
    expect(status?.title).toBe('Import into mona/legacy-svn');
    expect(status?.text).toContain('complete');
  });
});

describe('/source import', () => {
  it('status, authors, map-author, large files, lfs and cancel, with the linked account', async () => {
    const [authors] = await t.say('/source import authors mona/legacy-svn', { user: 'UMONA' });
    expect(authors?.code?.text).toMatch(/^ID\s+REMOTE\s+NAME\s+EMAIL/);
    const id = /\n(\d+)\s+alice/.exec(authors?.code?.text ?? '')?.[1];
    expect(id).toBeDefined();
    const [mapped] = await t.say(
      `/source import map-author mona/legacy-svn ${id} --email alice@example.org`,
      {
        user: 'UMONA',
      },
    );
    expect(mapped?.text).toContain('Authors can no longer be changed');
    const [noFields] = await t.say(`/source import map-author mona/legacy-svn ${id}`, { user: 'UMONA' });
    expect(noFields?.text).toContain('Give --email, --name or both.');
    const [badEmail] = await t.say(`/source import map-author mona/legacy-svn ${id} --email nope`, {
      user: 'UMONA',
    });
    expect(badEmail?.text).toContain('Invalid --email');

    sandbox().controls.startImport('mona/legacy-svn', 'https://svn.example.org/large-history', 'mona');
    await waitFor(
      async () => (await t.say('/source import large-files mona/legacy-svn', { user: 'UMONA' }))[0]?.code,
    );
    const [large] = await t.say('/source import large-files mona/legacy-svn', { user: 'UMONA' });
    expect(large?.title).toBe('Large files in the import into mona/legacy-svn');
    expect(large?.code?.text).toMatch(/^PATH\s+REF\s+SIZE\n/);
    expect(large?.code?.text).toMatch(/assets\/video\.bin\s+refs\/heads\/main\s+150\.0 MB$/);
    expect(large?.footer).toMatch(/^It is over 100 MB, which a push refuses\. Keep them with Git LFS/);
    const [lfs] = await t.say('/source import lfs mona/legacy-svn opt_in', { user: 'UMONA' });
    expect(lfs?.fields?.[2]?.value).toContain('kept with Git LFS');
    const [badLfs] = await t.say('/source import lfs mona/legacy-svn maybe', { user: 'UMONA' });
    expect(badLfs?.text).toContain('Invalid <choice>');
    const [ask] = await t.say('/source import cancel mona/legacy-svn', { user: 'UMONA' });
    const [cancelled] = await t.press(button(ask, 'Confirm'), { user: 'UMONA' });
    expect(cancelled?.text).toBe('Stopped the import into mona/legacy-svn.');
    const [gone] = await t.say('/source import status mona/legacy-svn', { user: 'UMONA' });
    expect(gone?.text).toMatch(
      /^There is no source import into mona\/legacy-svn \(none was started, it was cancelled, or your account cannot see the repository\)\./,
    );
    const [followGone] = await t.say('/source import follow mona/legacy-svn', { user: 'UMONA' });
    expect(followGone?.text).toContain('There is no source import into mona/legacy-svn');
    // The follow of the previous test ended with the import it announced.
    const [unfollowed] = await t.say('/source import unfollow mona/legacy-svn', { user: 'UMONA' });
    expect(unfollowed?.text).toBe('This conversation was not following mona/legacy-svn.');
    await t.app.services.accounts.followers.follow('mona/legacy-svn', 'slack:T1:C1');
    const [unfollowedNow] = await t.say('/source import unfollow mona/legacy-svn', { user: 'UMONA' });
    expect(unfollowedNow?.text).toContain('No more announcements');
  });

  it('/source ratelimit shows every category with its reset time; a used-up window is refused before sending', async () => {
    const [card] = await t.say('/source ratelimit', { user: 'UMONA' });
    expect(card?.title).toBe('Source-host rate limits of mona');
    expect(card?.fields?.map((f) => f.label)).toEqual(expect.arrayContaining(['core', 'search', 'graphql']));
    // The reset is a time value each platform shows in the reader's (or the conversation's) zone.
    expect(card?.fields?.[0]?.value).toMatch(/^\d+ of 5000 left \(\d+ used\), resets$/);
    expect(card?.fields?.[0]?.time?.at).toBeGreaterThan(Date.now() - 60_000);
    expect(card?.footer ?? '').not.toContain('local time');
    const linked = await t.app.services.accounts.credentials.source(slackUser('UMONA'));
    sandbox().controls.exhaust(linked?.token, 3600);
    const [limited] = await t.say('/source import status mona/legacy-svn', { user: 'UMONA' });
    expect(limited?.text).toMatch(/The source host's core rate limit is used up until \d\d:\d\d/);
    const requests = sandbox().state.windows.get(`token:${linked?.token}`)?.used;
    const [again] = await t.say('/source import status mona/legacy-svn', { user: 'UMONA' });
    expect(again?.text).toContain('rate limit is used up');
    expect(sandbox().state.windows.get(`token:${linked?.token}`)?.used).toBe(requests);
  });
});
