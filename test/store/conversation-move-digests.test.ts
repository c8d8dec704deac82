/** A conversation that moves to a new id (a group upgraded to a supergroup) keeps its tool digests. */
import { expect, it } from 'vitest';
import { ConversationMove } from '../../src/store/conversation-move';
import { startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';

let t: TestApp;
useStarted(startTestApp, (started) => {
  t = started;
});

it('moves the calendar digest and each subscribed tool’s digest, and /subscriptions shows them there', async () => {
  const { digests, subscriptions, bindings, timeZones } = t.app.services;
  await t.say('/subscribe mytool --digest daily@08:15');
  await t.say('/calendar digest --weekly --day fri');
  const move = new ConversationMove({
    bindings: bindings as never,
    timeZones: timeZones as never,
    subscriptions,
    digests,
  });
  const moved = await move.move('slack:T1:C1', 'slack:T1:C2');
  expect(moved).toEqual(['subscriptions', 'digest']);
  expect(await digests.get('slack:T1:C1', 'mytool')).toBeUndefined();
  expect(await digests.get('slack:T1:C2', 'mytool')).toMatchObject({ tool: 'mytool', at: '08:15' });
  expect(await digests.get('slack:T1:C2')).toMatchObject({ every: 'weekly', weekday: 5 });
  expect((await digests.list()).map((d) => `${d.conversationId} ${d.tool ?? 'calendar'}`).sort()).toEqual([
    'slack:T1:C2 calendar',
    'slack:T1:C2 mytool',
  ]);
});
