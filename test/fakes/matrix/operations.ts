/**
 * What the fake homeserver answers to each Client-Server API operation it serves (by the
 * description's `operationId`), with the specification's status codes and error codes.
 */
import type { FakeHomeserver } from './server';
import type { FakeRoom } from './state';
import { syncResponse } from './sync';

/** An operation's answer: JSON, or bytes with their content type. */
export interface Answer {
  status: number;
  json: unknown;
  type?: string;
}

/** A validated request. */
export interface OperationRequest {
  operationId: string;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  user: string | undefined;
  token: string | undefined;
  contentType: string | undefined;
  /** True once the client went away (a parked sync ends). */
  closed(): boolean;
}

const error = (status: number, errcode: string, message: string): Answer => ({
  status,
  json: { errcode, error: message },
});

const needsUser = new Set([
  'getTokenOwner',
  'sync',
  'joinRoom',
  'joinRoomById',
  'leaveRoom',
  'sendMessage',
  'uploadContent',
  'getContentAuthed',
  'getContentOverrideNameAuthed',
  'createRoom',
]);

/** Answers one operation (see the module comment). */
export async function handleOperation(fake: FakeHomeserver, request: OperationRequest): Promise<Answer> {
  const { operationId, params, body } = request;
  const user = request.user;
  if (needsUser.has(operationId) && !user) return error(401, 'M_MISSING_TOKEN', 'Missing access token.');
  const me = user as string;
  const state = fake.state;
  const room = (id: string | undefined): FakeRoom | undefined => (id ? state.rooms.get(id) : undefined);
  switch (operationId) {
    case 'getVersions':
      return { status: 200, json: { versions: ['v1.11', 'v1.12'], unstable_features: {} } };
    case 'login': {
      const login = body as { type?: string; identifier?: { user?: string }; password?: string };
      const local = login.identifier?.user ?? '';
      const userId = local.startsWith('@') ? local : `@${local}:${fake.serverName}`;
      if (login.type !== 'm.login.password' || fake.passwords.get(userId) !== login.password)
        return error(403, 'M_FORBIDDEN', 'Invalid username or password');
      const token = `syt_${state.id('')}`;
      fake.tokens.set(token, userId);
      return { status: 200, json: { user_id: userId, access_token: token, device_id: 'FAKEDEVICE' } };
    }
    case 'getTokenOwner':
      return { status: 200, json: { user_id: me, device_id: 'FAKEDEVICE', is_guest: false } };
    case 'sync':
      return syncResponse(fake, me, request);
    case 'joinRoom':
    case 'joinRoomById': {
      const target = room(params.roomIdOrAlias ?? params.roomId);
      if (!target) return error(404, 'M_NOT_FOUND', 'No known servers');
      if (target.members.get(me) !== 'invite' && target.members.get(me) !== 'join')
        return error(403, 'M_FORBIDDEN', 'You are not invited to this room.');
      if (target.members.get(me) !== 'join') state.setMembership(target, me, 'join');
      return { status: 200, json: { room_id: target.id } };
    }
    case 'leaveRoom': {
      const target = room(params.roomId);
      if (!target) return error(404, 'M_NOT_FOUND', 'Unknown room');
      const reason = (body as { reason?: string } | undefined)?.reason;
      state.setMembership(target, me, 'leave', reason);
      return { status: 200, json: {} };
    }
    case 'createRoom': {
      const spec = body as { invite?: string[]; name?: string; is_direct?: boolean };
      const created = state.createRoom(me, spec.name ?? '');
      // People accept a direct invitation at once.
      for (const invitee of spec.invite ?? []) {
        state.invite(created, me, invitee);
        state.setMembership(created, invitee, 'join');
      }
      return { status: 200, json: { room_id: created.id } };
    }
    case 'sendMessage': {
      const target = room(params.roomId);
      if (target?.members.get(me) !== 'join')
        return error(403, 'M_FORBIDDEN', `User ${me} not in room ${params.roomId}`);
      const key = `${request.token} ${params.txnId}`;
      const known = state.transactions.get(key);
      if (known) return { status: 200, json: { event_id: known } };
      const event = state.addEvent(target, me, params.eventType as string, body as Record<string, unknown>);
      state.transactions.set(key, event.event_id);
      return { status: 200, json: { event_id: event.event_id } };
    }
    case 'uploadContent': {
      const data = body as Buffer;
      const type = request.contentType ?? 'application/octet-stream';
      const media = state.upload(data, type, me, request.query.filename);
      return { status: 200, json: { content_uri: media.mxc } };
    }
    case 'getContent':
    case 'getContentAuthed':
    case 'getContentOverrideName':
    case 'getContentOverrideNameAuthed': {
      const media = state.media.get(`mxc://${params.serverName}/${params.mediaId}`);
      if (!media) return error(404, 'M_NOT_FOUND', 'Not found');
      return { status: 200, json: media.data, type: media.contentType };
    }
    default:
      return error(404, 'M_UNRECOGNIZED', `The fake homeserver does not serve ${operationId}`);
  }
}
