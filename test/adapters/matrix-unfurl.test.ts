/**
 * Link unfurls on a platform where the bot is addressed: a tool link in a line addressed to the bot
 * is answered with the tool's status card, once per room within the window; a link in chatter that
 * does not address the bot is left alone.
 */

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type PhabricatorSandbox,
  startPhabricatorSandbox,
} from '../../packages/sandbox/src/phabricator/index';
import { type MatrixDeckhand, MX_USERS, roomWithBot, startMatrixDeckhand } from '../fakes/matrix/harness';
import { waitFor } from '../support/wait';

let t: MatrixDeckhand;
let room: string;
let phabricator: PhabricatorSandbox;

beforeAll(async () => {
  phabricator = await startPhabricatorSandbox();
  t = await startMatrixDeckhand({ env: { PHABRICATOR_URL: phabricator.url } });
  room = await roomWithBot(t, 'unfurls');
});
afterAll(async () => {
  await t?.close();
  await phabricator?.close();
});
afterEach(() => {
  expect(t.fake.violations).toEqual([]);
});

const inThread = (root: string) => t.people.botMessages(room).filter((m) => m.thread === root);

/** Says a line that is surely answered, and waits for the answer: everything said before is handled. */
async function handled(): Promise<void> {
  const marker = t.people.say(MX_USERS.stranger, room, '!deploy');
  await waitFor(() => inThread(marker.event_id).length > 0);
}

describe('Matrix link unfurls', () => {
  it("answers a tool link addressed to the bot with the tool's status card, once within 30 minutes", async () => {
    const chatter = t.people.say(MX_USERS.stranger, room, 'see https://mytool.toolforge.org/ for it');
    const ask = t.people.say(MX_USERS.stranger, room, 'deckhand: what about https://mytool.toolforge.org/?');
    const card = await waitFor(() => inThread(ask.event_id)[0]);
    expect(card.body).toContain('mytool');
    expect(card.body).toMatch(/Platform|Build|Deployment|Jobs/);
    expect(card.body).not.toMatch(/Unknown command/);
    const again = t.people.say(
      MX_USERS.admin,
      room,
      'deckhand: https://toolsadmin.wikimedia.org/tools/id/mytool',
    );
    await handled();
    expect(inThread(chatter.event_id)).toEqual([]);
    expect(inThread(ask.event_id)).toHaveLength(1);
    expect(inThread(again.event_id)).toEqual([]);
  });

  it('answers an addressed line with no link it knows as before (an unknown command)', async () => {
    const ask = t.people.say(MX_USERS.stranger, room, 'deckhand: https://example.org/mytool');
    const note = await waitFor(() => inThread(ask.event_id)[0]);
    expect(note.body).toMatch(/direct room/);
    const dm = await waitFor(() => t.people.directRoom(MX_USERS.stranger));
    const answer = await waitFor(() => t.people.botMessages(dm).find((m) => /Unknown command/.test(m.body)));
    expect(answer.body).toContain('https:');
  });

  it("answers a task id addressed to the bot with the task's title, status and link (maniphest.search)", async () => {
    const ask = t.people.say(MX_USERS.stranger, room, 'deckhand: is T123 done yet?');
    const card = await waitFor(() => inThread(ask.event_id)[0]);
    expect(card.body).toContain('T123: Deploy the new webservice of mytool');
    expect(card.body).toContain('Open');
    expect(card.body).toContain(`${phabricator.url}/T123`);
    expect(phabricator.calls.at(-1)).toMatchObject({ constraints: { ids: { '0': '123' } } });
  });
});
