/**
 * The Matrix adapter in a `web` process: a command is acknowledged and queued, and a worker runs it
 * and answers through the reply surface rebuilt from the queued place (room, person, the command's
 * event for the thread) — the answer lands in the command's thread as when it runs in place.
 */
import { expect, it } from 'vitest';
import { type MatrixDeckhand, MX_USERS, roomWithBot, startMatrixDeckhand } from '../fakes/matrix/harness';
import { useFakePlatform } from '../support/started';
import { waitFor } from '../support/wait';

let t: MatrixDeckhand;
useFakePlatform(
  () => startMatrixDeckhand({ role: 'web' }),
  (started) => {
    t = started;
  },
);

it('a queued !deploy is run by a worker and answered in the thread of the command', async () => {
  const room = await roomWithBot(t, 'queued');
  const ask = t.people.say(MX_USERS.admin, room, '!deploy mytool');
  const done = await waitFor(
    () => t.people.botMessages(room).find((m) => m.thread === ask.event_id && m.body.startsWith('✅')),
    30_000,
  );
  expect(done.body).toContain('Deploy mytool');
  const queued = await t.app.queues.commands.getJobs(['completed']);
  expect(queued.some((job) => JSON.stringify(job.data).includes(ask.event_id))).toBe(true);
});
