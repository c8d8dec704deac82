import { describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';

let t: TestApp;

useStarted(startTestApp, (started) => {
  t = started;
});

describe('audit', () => {
  it('appends every side-effect command with who, where, arguments without secrets and the outcome', async () => {
    await t.say('/envvars set mytool AUDITED_KEY audit-secret-value-42', { user: 'UMAINT', private: true });
    await t.say('/deploy mytool --description "audit me"', { user: 'UMAINT' });
    await t.say('/deploy mytool', { user: 'USTRANGER' });
    await t.say('/jobs list mytool', { user: 'USTRANGER' });
    await t.say('/link media audit-media-key-0123', { user: 'USTRANGER' });
    const entries = await t.app.services.accounts.audit.recent({ limit: 10 });
    expect(entries.map((e) => [e.command, e.user, e.outcome])).toEqual([
      ['link media', 'slack:T1:USTRANGER', 'refused'],
      ['deploy', 'slack:T1:USTRANGER', 'permission'],
      ['deploy', 'slack:T1:UMAINT', 'ok'],
      ['envvars set', 'slack:T1:UMAINT', 'ok'],
    ]);
    expect(entries[3]).toMatchObject({
      platform: 'slack',
      conversationId: 'slack:T1:D1',
      tool: 'mytool',
      args: { tool: 'mytool', name: 'AUDITED_KEY' },
    });
    expect(entries[2]?.args).toMatchObject({ description: 'audit me' });
    const raw = JSON.stringify(
      await t.app.redis.redis.xrange(`${t.app.services.config.REDIS_KEY_PREFIX}audit`, '-', '+'),
    );
    expect(raw).not.toContain('audit-secret-value-42');
    expect(raw).not.toContain('audit-media-key-0123');
  });

  it('/audit <tool> for its maintainers; /audit for admins; others are refused', async () => {
    const [mine] = await t.say('/audit mytool', { user: 'UMAINT' });
    expect(mine?.title).toBe('Audit of mytool: the latest 3');
    expect(mine?.code?.text).toMatch(/^WHEN \(UTC\)\s+WHO\s+COMMAND\s+TOOL\s+OUTCOME\s+ARGUMENTS/);
    expect(mine?.code?.text).toMatch(/UMAINT\s+\/envvars set\s+mytool\s+ok\s+name=AUDITED_KEY/);
    expect(mine?.code?.text).toMatch(/USTRANGER\s+\/deploy\s+mytool\s+permission/);
    const [limited] = await t.say('/audit --limit 1', { user: 'UADMIN' });
    expect(limited?.title).toBe('Audit: the latest 1');
    expect(limited?.code?.text).toContain('/link media');
    const [other] = await t.say('/audit demo', { user: 'UMAINT' });
    expect(other?.text).toContain('Only maintainers of demo can do that.');
    const [stranger] = await t.say('/audit mytool', { user: 'USTRANGER' });
    expect(stranger?.text).toContain('Only maintainers of mytool can do that.');
    const [bad] = await t.say('/audit mytool --limit 500', { user: 'UADMIN' });
    expect(bad?.text).toContain('Invalid --limit');
  });
});

describe('audit of a command waiting for /link', () => {
  it('records it as deferred, not ok; the command itself has not run', async () => {
    const [card] = await t.say('/source migration unlock toolforge-repos 1 mytool', { user: 'UNOLINK' });
    expect(card?.title).toBe('Link your source-host account');
    expect(card).not.toHaveProperty('deferred');
    const [entry] = await t.app.services.accounts.audit.recent({ limit: 1 });
    expect(entry).toMatchObject({
      command: 'source migration unlock',
      user: 'slack:T1:UNOLINK',
      outcome: 'deferred',
    });
    // A command that did its work is still ok.
    await t.say('/timezone UTC', { user: 'UNOLINK' });
    const [doneEntry] = await t.app.services.accounts.audit.recent({ limit: 1 });
    expect(doneEntry).toMatchObject({ command: 'timezone', outcome: 'ok' });
  });
});

describe('audit outcomes of commands that change nothing', () => {
  it('a /link that only sent the secret page is pending; a refused credential is refused', async () => {
    await t.say('/link media', { user: 'UOUTCOME', private: true });
    const [pending] = await t.app.services.accounts.audit.recent({ limit: 1 });
    expect(pending).toMatchObject({ command: 'link media', user: 'slack:T1:UOUTCOME', outcome: 'pending' });
    const [refusedCard] = await t.say('/link media not-a-key-the-host-knows-0000', {
      user: 'UOUTCOME',
      private: true,
    });
    expect(refusedCard?.text).toContain('refused this API key, so nothing was stored');
    const [refused] = await t.app.services.accounts.audit.recent({ limit: 1 });
    expect(refused).toMatchObject({ command: 'link media', user: 'slack:T1:UOUTCOME', outcome: 'refused' });
    await t.say('/link source', { user: 'UOUTCOME' });
    const [source] = await t.app.services.accounts.audit.recent({ limit: 1 });
    expect(source).toMatchObject({ command: 'link source', user: 'slack:T1:UOUTCOME', outcome: 'pending' });
  });

  it('/timezone showing the zone is not audited; setting it is', async () => {
    const [shown] = await t.say('/timezone', { user: 'UZONE' });
    expect(shown?.text).toContain('Times here are shown in');
    // A later audited command proves the trail was written to after the showing.
    await t.say('/timezone Europe/Berlin', { user: 'UZONE' });
    const entries = (await t.app.services.accounts.audit.recent({ limit: 20 })).filter(
      (e) => e.user === 'slack:T1:UZONE',
    );
    expect(entries.map((e) => [e.command, e.args, e.outcome])).toEqual([
      ['timezone', { zone: 'Europe/Berlin' }, 'ok'],
    ]);
  });
});
