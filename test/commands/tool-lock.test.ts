import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/reply';
import { button, startTestApp, type TestApp } from '../support/app';
import { linkDirectly, slackUser } from '../support/oauth-web';
import { expectReplies, type ReplyStep } from '../support/replies';

/** 50 maintainers of mytool besides UMAINT, for the concurrent locking. */
const RACERS = Array.from({ length: 50 }, (_, i) => `URACE${i}`);

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    TOOL_MAINTAINERS: ['mytool=slack:UMAINT', ...RACERS.map((u) => `mytool=slack:${u}`)].join(','),
  });
  await linkDirectly(t.app, slackUser('UPUSH'), 'mona', ['read:user']);
});
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  await t.say('/tool unlock mytool');
  for (const freeze of await t.app.services.accounts.guards.freezes('mytool')) {
    await t.app.services.accounts.guards.removeFreeze('mytool', freeze.id);
  }
});

const lockKey = () => `${t.app.services.config.REDIS_KEY_PREFIX}tool-lock:{mytool}`;
const deployed = (card: Card | undefined) => expect(card?.title).toBe('Deploy mytool');
const isPrompt = (card: Card | undefined) => card?.title === 'Please confirm';

/** The audit entries of mytool written after `since` (ms), oldest first, as `[command, who, outcome]`. */
async function auditedSince(since: number): Promise<string[][]> {
  const entries = await t.app.services.accounts.audit.recent({ tool: 'mytool', limit: 100 });
  return entries
    .filter((e) => e.at >= since)
    .reverse()
    .map((e) => [e.command, e.name, e.outcome]);
}

describe('/tool lock', () => {
  it('refuses a deploy during the lock, naming the holder, and a destructive command before asking', async () => {
    const [locked] = await t.say('/tool lock mytool release 1.4 in progress --for 2h', { user: 'UMAINT' });
    expect(locked?.title).toBe('mytool is locked');
    expect(locked?.fields?.map((f) => f.label)).toEqual(['Locked by', 'Since', 'Until', 'Reason']);
    expect(locked?.fields?.[3]?.value).toBe('release 1.4 in progress');

    const [refused] = await t.say('/deploy mytool', { user: 'UADMIN' });
    expect(refused?.status).toBe('warning');
    expect(refused?.text).toMatch(
      /^mytool is locked by UMAINT since .+ \("release 1\.4 in progress"\), until /,
    );
    expect(refused?.text).toMatch(/\/(deckhand )?deploy was not run; nothing was changed\./);
    expect(refused?.text).toMatch(/can unlock it with \/(deckhand )?tool unlock mytool/);
    const deployments = await t.app.services.toolhost.forTool('mytool').components.listDeployments();
    const before = deployments.length;

    const asked = await t.say('/config delete mytool', { user: 'UADMIN' });
    expect(asked).toHaveLength(1);
    expect(isPrompt(asked[0])).toBe(false);
    expect(asked[0]?.text).toContain('mytool is locked by UMAINT');
    expect((await t.app.services.toolhost.forTool('mytool').components.listDeployments()).length).toBe(
      before,
    );

    // Read commands and commands of other tools are not held.
    const [jobs] = await t.say('/jobs list mytool', { user: 'UADMIN' });
    expect(jobs?.title).toBe('Jobs of mytool');
  });

  it('refuses a Confirm pressed after the tool was locked', async () => {
    const [ask] = await t.say('/jobs flush mytool', { user: 'UMAINT' });
    expect(isPrompt(ask)).toBe(true);
    await t.say('/tool lock mytool --for 30m', { user: 'URACE1' });
    const [pressed] = await t.press(button(ask, 'Confirm'), { user: 'UMAINT' });
    expect(pressed?.text).toContain('mytool is locked by URACE1');
    expect(pressed?.text).toMatch(/\/(deckhand )?jobs flush was not run/);
  });

  it('lets the deploy run once the lock has expired', async () => {
    await t.say('/tool lock mytool --for 1h', { user: 'UMAINT' });
    expect((await t.say('/deploy mytool'))[0]?.text).toContain('mytool is locked by UMAINT');
    await t.app.redis.redis.pexpire(lockKey(), 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    deployed((await t.say('/deploy mytool'))[0]);
  });

  it('ends at its stored end: a later taker finds it free once that time has passed', async () => {
    const now = Date.now();
    const guards = t.app.services.accounts.guards;
    const lock = { tool: 'mytool', holder: 'slack:T1:UMAINT', name: 'UMAINT', conversationId: 'slack:T1:C1' };
    await guards.lock({ ...lock, since: now, until: now + 60_000 }, { take: false });
    expect(await guards.currentLock('mytool', now + 59_000)).toMatchObject({ holder: 'slack:T1:UMAINT' });
    expect(await guards.currentLock('mytool', now + 60_000)).toBeUndefined();
    const other = { ...lock, holder: 'slack:T1:URACE2', name: 'URACE2' };
    expect(
      await guards.lock({ ...other, since: now + 30_000, until: now + 90_000 }, { take: false }),
    ).toMatchObject({
      kind: 'held',
      lock: { name: 'UMAINT' },
    });
    expect(
      await guards.lock({ ...other, since: now + 60_000, until: now + 120_000 }, { take: false }),
    ).toEqual({
      kind: 'taken',
      lock: { ...other, since: now + 60_000, until: now + 120_000 },
    });
  });

  it('of 50 maintainers locking at once, exactly one holds the lock', async () => {
    const cards = await Promise.all(RACERS.map((user) => t.say(`/tool lock mytool race ${user}`, { user })));
    const winners = cards.filter(([card]) => card?.title === 'mytool is locked');
    const losers = cards.filter(([card]) => card?.text?.includes('already holds the lock on mytool'));
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(49);
    const holder = await t.app.services.accounts.guards.currentLock('mytool');
    expect(winners[0]?.[0]?.fields?.[0]?.value).toBe(holder?.name);
    expect(holder?.reason).toBe(`race ${holder?.name}`);
  });

  it('audits a delivery once: a retry that finds it already ran answers so and adds no entry', async () => {
    const since = Date.now();
    const [first] = await t.say('/tool lock mytool retried', { key: 'slack:trigger:retried-lock' });
    expect(first?.title).toBe('mytool is locked');
    const [retry] = await t.say('/tool lock mytool retried', { key: 'slack:trigger:retried-lock' });
    expect(retry?.text).toMatch(/tool lock already ran for this request; its answer is above\.$/);
    // Another delivery of the same line is another request: audited again (positive control).
    await t.say('/tool lock mytool retried', { key: 'slack:trigger:second-lock' });
    expect(await auditedSince(since)).toEqual([
      ['tool lock', 'UADMIN', 'ok'],
      ['tool lock', 'UADMIN', 'ok'],
    ]);
  });

  it('takes a lock someone else holds only with --take, and says so in the conversation', async () => {
    await t.say('/tool lock mytool migration --for 1h', { user: 'UMAINT' });
    const [refused] = await t.say('/tool lock mytool hotfix', { user: 'URACE3' });
    expect(refused?.text).toMatch(
      /^UMAINT already holds the lock on mytool \(since .+, "migration", until .+\); yours was not taken\./,
    );
    expect(refused?.text).toMatch(/\/(deckhand )?tool lock mytool --take/);
    const [taken] = await t.say('/tool lock mytool hotfix --take', { user: 'URACE3' });
    expect(taken?.title).toBe('URACE3 took the lock on mytool from UMAINT');
    expect(taken?.text).toContain('("migration")');
    expect(taken?.visibility).not.toBe('private');
    expect(await t.app.services.accounts.guards.currentLock('mytool')).toMatchObject({
      name: 'URACE3',
      reason: 'hotfix',
    });
    // The holder renews their own lock without --take.
    const [renewed] = await t.say('/tool lock mytool hotfix --for 3h', { user: 'URACE3' });
    expect(renewed?.title).toBe('mytool is locked');
  });

  it('is for maintainers only, and says what is wrong with its options', async () => {
    await expectReplies(
      t,
      [
        ['/tool lock mytool', 'Only maintainers of mytool can do that.'],
        ['/tool unlock mytool', 'Only maintainers of mytool can do that.'],
      ],
      { user: 'USTRANGER' },
    );
    const cases: ReplyStep[] = [
      ['/tool lock mytool --for 2x', '"2x" is not a duration.'],
      ['/tool lock mytool --for 30s', '"30s" is not a duration.'],
      ['/tool lock mytool --for 15d', 'A lock can last at most 14 days.'],
      ['/tool lock mytool --for 0m', 'A lock must last at least a minute'],
      ['/tool lock mytool --for 1h --until 18:00', 'Give --for or --until, not both.'],
      ['/tool lock mytool --until tomorrow', '"tomorrow" is not a time Deckhand can read.'],
      [
        '/tool lock mytool --until 2020-01-01T09:00',
        'A lock must last at least a minute, and end in the future.',
      ],
      [`/tool lock mytool ${'x'.repeat(201)}`, 'The reason is 201 characters long; at most 200 fit.'],
      ['/tool lock MyTool', 'must be a tool name'],
    ];
    await expectReplies(t, cases, { user: 'UMAINT' });
    expect(await t.app.services.accounts.guards.currentLock('mytool')).toBeUndefined();
    const [none] = await t.say('/tool unlock mytool', { user: 'UMAINT' });
    expect(none?.text).toBe('mytool is not locked; nothing was changed.');
  });

  it('reads --until in the conversation’s time zone', async () => {
    await t.say('/timezone Europe/Berlin', { user: 'UMAINT' });
    try {
      const end = DateTime.now().setZone('Europe/Berlin').plus({ days: 2 }).set({ hour: 9, minute: 0 });
      await t.say(`/tool lock mytool --until ${end.toFormat("yyyy-MM-dd'T'HH:mm")}`, { user: 'UMAINT' });
      const lock = await t.app.services.accounts.guards.currentLock('mytool');
      expect(lock?.until).toBe(end.startOf('minute').toMillis());
    } finally {
      await t.say('/timezone UTC', { user: 'UMAINT' });
    }
  });
});

it('speaks the conversation’s language: its replies, its refusals and the lock held by someone else', async () => {
  await t.say('/language --here de');
  try {
    const [bad] = await t.say('/tool lock mytool --for soon', { user: 'UMAINT' });
    expect(bad?.text).toContain('„soon“ ist keine Dauer.');
    const [locked] = await t.say('/tool lock mytool --for 2h', { user: 'UMAINT' });
    expect(locked?.title).toBe('mytool ist gesperrt');
    expect(locked?.text).toMatch(
      /^Deploys und destruktive Befehle von mytool werden abgelehnt, bis es entsperrt wird \(\/(deckhand )?tool unlock mytool\) oder die Sperre endet\.$/,
    );
    await t.say('/language --here he');
    const [held] = await t.say('/tool lock mytool --for 1h', { user: 'URACE1' });
    expect(held?.text).toContain('כבר מחזיק/ה בנעילה על \u2068mytool\u2069');
    expect(held?.text).toContain('--take');
    const [unlocked] = await t.say('/tool unlock mytool', { user: 'UMAINT' });
    expect(unlocked?.title).toBe('הנעילה של \u2068mytool\u2069 הוסרה');
  } finally {
    await t.say('/language --here default');
  }
});

describe('--override', () => {
  it('asks another maintainer to approve a deploy during a lock; once approved it runs once, despite the lock', async () => {
    const since = Date.now();
    await t.say('/tool lock mytool release prep --for 2h', { user: 'UMAINT' });
    const mytool = t.app.services.toolhost.forTool('mytool');
    const before = (await mytool.components.listDeployments()).length;
    const [refused] = await t.say('/deploy mytool', { user: 'UADMIN' });
    expect(refused?.text).toContain('To run it anyway, add --override');

    const [card] = await t.say('/deploy mytool --override', { user: 'UADMIN' });
    expect(card?.title).toMatch(/^Approval needed: \/(deckhand )?deploy mytool$/);
    expect(card?.text).toMatch(/Despite: mytool is locked by UMAINT since .+ \("release prep"\), until /);
    const [own] = await t.press(button(card, 'Approve'), { user: 'UADMIN' });
    expect(own?.text).toContain('You asked for this yourself');
    const [stranger] = await t.press(button(card, 'Approve'), { user: 'USTRANGER' });
    expect(stranger?.text).toContain('Only maintainers of mytool can approve or deny this');
    expect((await mytool.components.listDeployments()).length).toBe(before);

    const ran = await t.press(button(card, 'Approve'), { user: 'UMAINT' });
    deployed(ran.find((c) => c.title === 'Deploy mytool'));
    expect((await mytool.components.listDeployments()).length).toBe(before + 1);
    // The lock still holds for everything else.
    const [still] = await t.say('/deploy mytool', { user: 'UADMIN' });
    expect(still?.text).toMatch(/^mytool is locked by UMAINT/);
    const deploys = (await t.app.services.accounts.audit.recent({ tool: 'mytool', limit: 20 }))
      .filter((e) => e.at >= since && e.command === 'deploy')
      .reverse()
      .map((e) => [e.name, e.outcome, e.args.override === true, e.args.approvedBy]);
    expect(deploys).toEqual([
      ['UADMIN', 'locked', false, undefined],
      ['UADMIN', 'ok', true, 'UMAINT'],
      ['UADMIN', 'locked', false, undefined],
    ]);
    // Asked in German: what is overridden is said in German too, without the refusal's ending.
    await t.say('/language --here de');
    try {
      const [german] = await t.say('/deploy mytool --override', { user: 'UADMIN' });
      expect(german?.text).toMatch(
        /\nTrotz: mytool ist seit .+ von UMAINT gesperrt \(„release prep“\), noch bis /,
      );
      expect(german?.text).not.toMatch(/ausgeführt|was not run|Despite/);
    } finally {
      await t.say('/language --here default');
    }
  });
});

describe('/tool freeze', () => {
  /**
   * A window from two hours ago to two hours from now, on Berlin's wall clock: it holds now even in
   * the night the clocks go back, when a wall-clock time an hour away may be read an hour off.
   */
  function windowAroundNow(): string {
    const now = DateTime.now().setZone('Europe/Berlin');
    const point = (d: DateTime) => `${d.toFormat('ccc').toLowerCase()} ${d.toFormat('HH:mm')}`;
    return `${point(now.minus({ hours: 2 }))} - ${point(now.plus({ hours: 2 }))}`;
  }

  it('refuses a deploy inside a freeze window, lists it, and runs again once it is removed', async () => {
    const [added] = await t.say(`/tool freeze mytool ${windowAroundNow()} --zone Europe/Berlin`, {
      user: 'UMAINT',
    });
    expect(added?.title).toMatch(/^Freeze window \d+ added to mytool$/);
    expect(added?.text).toContain('(Europe/Berlin), deploys and destructive commands of mytool are refused.');
    expect(added?.text).toContain('It holds now, until');
    const id = added?.title?.match(/window (\d+)/)?.[1] as string;

    const [refused] = await t.say('/deploy mytool', { user: 'UMAINT' });
    expect(refused?.text).toMatch(
      /^mytool is in a freeze window \(\w{3} \d\d:\d\d - \w{3} \d\d:\d\d, Europe\/Berlin, added by UMAINT\) until /,
    );
    expect(refused?.text).toMatch(new RegExp(`/(deckhand )?tool unfreeze mytool ${id}`));

    const [listed] = await t.say('/tool freezes mytool', { user: 'UADMIN' });
    expect(listed?.text).toBe('Deploys and destructive commands of mytool are refused now.');
    expect(listed?.fields?.[0]).toEqual({ label: 'Lock', value: 'not locked' });
    expect(listed?.fields?.[1]?.value).toMatch(/Europe\/Berlin\), added by UMAINT: holds now, until /);

    const [removed] = await t.say(`/tool unfreeze mytool ${id}`, { user: 'UMAINT' });
    expect(removed?.text).toBe(`Freeze window ${id} of mytool removed.`);
    deployed((await t.say('/deploy mytool', { user: 'UMAINT' }))[0]);
  });

  it('takes the conversation’s zone by default and says what is wrong with a window', async () => {
    const cases: ReplyStep[] = [
      ['/tool freeze mytool fri 15:00 - mon 08:00', 'Every week fri 15:00 - mon 08:00 (UTC)'],
      ['/tool freeze mytool', 'Missing <window>.'],
      ['/tool freeze mytool fri 15:00', 'A freeze window is a start and an end joined by "-".'],
      ['/tool freeze mytool fry 15:00 - mon 08:00', '"fry" is not a day of the week.'],
      ['/tool freeze mytool fri 3pm - mon 08:00', '"3pm" is not a time of day.'],
      [
        '/tool freeze mytool fri 15:00 - mon 08:00 --zone Berlin',
        'Berlin is not a time zone Deckhand knows.',
      ],
      ['/tool unfreeze mytool 99', 'mytool has no freeze window 99.'],
      ['/tool unfreeze mytool next', 'must be the number of a freeze window'],
    ];
    await expectReplies(t, cases, { user: 'UMAINT' });
    const [stranger] = await t.say('/tool freeze mytool fri 15:00 - mon 08:00', { user: 'USTRANGER' });
    expect(stranger?.text).toContain('Only maintainers of mytool can do that.');
  });
});

describe('the change record', () => {
  it('records each action once in /audit, with the linked identity', async () => {
    const since = Date.now();
    await t.say('/tool lock mytool audit trail --for 1h', { user: 'UPUSH' });
    await t.say('/deploy mytool', { user: 'UMAINT' });
    await t.say('/tool unlock mytool', { user: 'UMAINT' });
    await t.say('/deploy mytool', { user: 'UMAINT' });
    await t.say('/tool freezes mytool', { user: 'UMAINT' });
    expect(await auditedSince(since)).toEqual([
      ['tool lock', 'UPUSH', 'ok'],
      ['deploy', 'UMAINT', 'locked'],
      ['tool unlock', 'UMAINT', 'ok'],
      ['deploy', 'UMAINT', 'ok'],
    ]);
    const [lockEntry] = (await t.app.services.accounts.audit.recent({ tool: 'mytool', limit: 10 })).filter(
      (e) => e.command === 'tool lock' && e.at >= since,
    );
    expect(lockEntry).toMatchObject({
      platform: 'slack',
      user: 'slack:T1:UPUSH',
      identity: 'source:mona',
      conversationId: 'slack:T1:C1',
      tool: 'mytool',
      args: { tool: 'mytool', reason: ['audit', 'trail'], for: '1h' },
      // The card it answered with, as the platform's reference to the message.
      card: { platform: 'slack', conversationId: 'slack:T1:C1', ref: { ts: expect.any(String) } },
    });
    const [shown] = await t.say('/audit mytool --limit 4', { user: 'UMAINT' });
    expect(shown?.code?.text).toMatch(/UPUSH \(source:mona\)\s+\/tool lock\s+mytool\s+ok/);
    expect(shown?.code?.text).toMatch(/UMAINT\s+\/deploy\s+mytool\s+locked/);
  });
});
