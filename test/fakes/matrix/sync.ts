/**
 * `GET /_matrix/client/v3/sync` of the fake homeserver, with long-poll semantics: the events of the
 * rooms the user has joined and the invites it has pending since the `since` token; with nothing new
 * and a `timeout`, the request waits until something happens, the timeout passes or the client goes
 * away. The first sync (no `since`) carries the pending invites and each joined room's latest events
 * (`limited`), as homeservers do.
 */
import type { Answer, OperationRequest } from './operations';
import type { FakeHomeserver } from './server';
import type { FakeEvent } from './state';

/** How many latest events of a room a first sync carries. */
const INITIAL_TIMELINE = 5;

const clientEvent = (event: FakeEvent) => {
  const { room_id: _room, ...rest } = event;
  return rest;
};

function collect(fake: FakeHomeserver, user: string, since: number | undefined) {
  const join: Record<string, { timeline: { events: unknown[]; limited: boolean } }> = {};
  const invite: Record<string, { invite_state: { events: unknown[] } }> = {};
  const leave: Record<string, { timeline: { events: unknown[] } }> = {};
  for (const room of fake.state.rooms.values()) {
    const membership = room.members.get(user);
    if (membership === 'invite') {
      const invitedAt = fake.state.stream.findLast((i) => i.kind === 'invite' && i.roomId === room.id);
      if (since === undefined || (invitedAt && invitedAt.position > since))
        invite[room.id] = { invite_state: { events: fake.state.strippedState(room, user) } };
      continue;
    }
    const items = fake.state.stream.filter(
      (i) => i.kind === 'event' && i.roomId === room.id && (since === undefined || i.position > since),
    );
    let events = items.map((i) => clientEvent(i.event as FakeEvent));
    if (membership === 'leave') {
      // The user's own leave shows once, in `leave`.
      const left = events.filter((e) => e.type === 'm.room.member' && e.state_key === user);
      if (since !== undefined && left.length > 0) leave[room.id] = { timeline: { events: left } };
      continue;
    }
    if (membership !== 'join') continue;
    const limited = since === undefined && events.length > INITIAL_TIMELINE;
    if (since === undefined) events = events.slice(-INITIAL_TIMELINE);
    if (events.length > 0) join[room.id] = { timeline: { events, limited } };
  }
  const count = Object.keys(join).length + Object.keys(invite).length + Object.keys(leave).length;
  return { rooms: { join, invite, leave }, count };
}

/** Answers one sync request (see the module comment). */
export async function syncResponse(
  fake: FakeHomeserver,
  user: string,
  request: OperationRequest,
): Promise<Answer> {
  const sinceText = request.query.since;
  const since = sinceText === undefined ? undefined : Number(sinceText);
  if (since !== undefined && (!Number.isInteger(since) || since < 0 || since > fake.state.head))
    return { status: 400, json: { errcode: 'M_INVALID_PARAM', error: 'Invalid since token' } };
  const timeout = Number(request.query.timeout ?? 0);
  const deadline = Date.now() + timeout;
  for (;;) {
    const head = fake.state.head;
    const { rooms, count } = collect(fake, user, since);
    if (count > 0 || since === undefined || Date.now() >= deadline || request.closed())
      return { status: 200, json: { next_batch: String(head), rooms } };
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.min(deadline - Date.now(), 1000));
      const stop = fake.state.onNext(() => {
        clearTimeout(timer);
        resolve();
      });
      setTimeout(stop, Math.min(deadline - Date.now(), 1000) + 1);
    });
  }
}
