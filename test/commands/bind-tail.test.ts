import { describe, expect, it } from 'vitest';
import { button, startTestApp, type TestApp } from '../support/app';
import { expectReplies } from '../support/replies';
import { useStarted } from '../support/started';
import { waitFor } from '../support/wait';

let t: TestApp;

useStarted(startTestApp, (started) => {
  t = started;
});

const bound = () => t.app.services.bindings.get('slack:T1:C1');

describe('/tool bind and /tool unbind', () => {
  it('refuses a tool that does not exist, and stores nothing', async () => {
    const [card] = await t.say('/tool bind nosuchtool');
    expect(card?.text).toContain('Tool nosuchtool does not exist');
    expect(await bound()).toBeUndefined();
  });

  it('refuses a user without a role on the tool, and stores nothing', async () => {
    const [card] = await t.say('/tool bind mytool', { user: 'USTRANGER' });
    expect(card?.text).toContain('Only maintainers of mytool');
    expect(await bound()).toBeUndefined();
  });

  it('binds, answers optional ids about the bound tool, and unbinds', async () => {
    await expectReplies(t, [['/tool bind mytool', 'now bound to mytool']]);
    expect(await bound()).toBe('mytool');
    await expectReplies(t, [
      ['/build show latest', { title: 'Build of mytool' }],
      // Naming the bound tool still works, and so does naming another one with --tool.
      ['/build show mytool', { title: 'Build of mytool' }],
      ['/jobs show --tool demo api', { title: 'Job api of demo' }],
    ]);
    const [logs] = await t.say('/logs web --lines 3');
    expect(logs?.title).toContain('Logs of web (mytool)');

    await expectReplies(t, [['/tool unbind', 'no longer bound to mytool']]);
    expect(await bound()).toBeUndefined();
    await expectReplies(t, [['/tool unbind', 'not bound to a tool']]);
  });
});

describe('/tail stop without arguments', () => {
  const liveCards = () => t.transcript.posted.filter((c) => c.title?.startsWith('Live log:'));

  it('says when nothing is followed, stops the only tail, and asks which when there are several', async () => {
    const [nothing] = await t.say('/tail stop');
    expect(nothing?.text).toContain('No live log is being followed');

    await t.say('/logs mytool web --follow');
    await waitFor(
      async () => (await t.app.services.tails.inConversation('slack:T1:C1')).length === 1,
      15_000,
    );
    const [stopped] = await t.say('/tail stop');
    expect(stopped?.text).toContain('Stopping the live log of the job web of mytool');
    await waitFor(
      async () => (await t.app.services.tails.inConversation('slack:T1:C1')).length === 0,
      15_000,
    );

    await t.say('/logs mytool web --follow');
    await t.say('/logs demo api --follow');
    await waitFor(
      async () => (await t.app.services.tails.inConversation('slack:T1:C1')).length === 2,
      15_000,
    );
    expect(liveCards().length).toBeGreaterThanOrEqual(3);
    const [which] = await t.say('/tail stop');
    expect(which?.title).toBe('Which live log?');
    expect(which?.buttons?.map((b) => b.label)).toEqual(['Stop job web of mytool', 'Stop job api of demo']);
    // Asking stopped nothing.
    expect((await t.app.services.tails.inConversation('slack:T1:C1')).length).toBe(2);
    await t.press(button(which, 'Stop job api of demo'));
    await waitFor(async () => {
      const left = await t.app.services.tails.inConversation('slack:T1:C1');
      return left.length === 1 && left[0]?.tool === 'mytool';
    }, 15_000);
    await t.say('/tail stop');
    await waitFor(
      async () => (await t.app.services.tails.inConversation('slack:T1:C1')).length === 0,
      15_000,
    );
  });
});
