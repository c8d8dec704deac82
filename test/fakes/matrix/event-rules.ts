/**
 * Rules of the events the bot sends that the Client-Server API description leaves to prose (its
 * `PUT /rooms/{roomId}/send/{eventType}/{txnId}` takes any JSON object; event content is specified in
 * matrix-spec `data/event-schemas/` and the "Events" chapters):
 * - `m.room.message`: `msgtype` and `body` are strings (event-schemas `m.room.message`); with
 *   `formatted_body`, `format` is `org.matrix.custom.html`; `m.file`/`m.image` carry an `mxc://` `url`;
 * - `m.replace` (Event replacements): `m.new_content` is present, and the replacement's own `body`
 *   is the fallback; an edit may not carry a thread relation of its own;
 * - `m.thread` (Threading): `event_id` names the thread root; `is_falling_back` with
 *   `m.in_reply_to` for clients without threads;
 * - `m.reaction` (Event annotations): `m.relates_to` with `rel_type: m.annotation`, `event_id`, `key`;
 * - size: the whole event must not exceed 65,536 bytes (Size limits); the content alone is checked.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with the content of an event of `type` (empty when fine). */
export function eventProblems(type: string, content: unknown): string[] {
  if (!isObject(content)) return ['the event content is not a JSON object'];
  const problems: string[] = [];
  const size = Buffer.byteLength(JSON.stringify(content));
  if (size > 65_536) problems.push(`the event content has ${size} bytes (an event is at most 65,536)`);
  const relation = content['m.relates_to'];
  if (type === 'm.reaction') {
    if (!isObject(relation) || relation.rel_type !== 'm.annotation' || typeof relation.key !== 'string')
      problems.push('m.reaction needs m.relates_to {rel_type: m.annotation, event_id, key}');
    return problems;
  }
  if (type !== 'm.room.message') return problems;
  problems.push(...messageProblems(content, 'content'));
  if (isObject(relation)) {
    if (typeof relation.event_id !== 'string' && relation.rel_type !== undefined)
      problems.push('m.relates_to.event_id is missing');
    if (relation.rel_type === 'm.replace') {
      if (!isObject(content['m.new_content'])) problems.push('an m.replace edit needs m.new_content');
      else problems.push(...messageProblems(content['m.new_content'] as Json, 'm.new_content'));
    }
    if (relation.rel_type === 'm.thread' && relation.is_falling_back === true) {
      const reply = relation['m.in_reply_to'];
      if (!isObject(reply) || typeof reply.event_id !== 'string')
        problems.push('a falling-back thread relation needs m.in_reply_to.event_id');
    }
  }
  return problems;
}

function messageProblems(content: Json, where: string): string[] {
  const problems: string[] = [];
  if (typeof content.msgtype !== 'string') problems.push(`${where}.msgtype is not a string`);
  if (typeof content.body !== 'string') problems.push(`${where}.body is not a string`);
  if (content.formatted_body !== undefined) {
    if (typeof content.formatted_body !== 'string') problems.push(`${where}.formatted_body is not a string`);
    if (content.format !== 'org.matrix.custom.html')
      problems.push(`${where}.format must be org.matrix.custom.html with formatted_body`);
  }
  if (content.msgtype === 'm.file' || content.msgtype === 'm.image') {
    if (typeof content.url !== 'string' || !content.url.startsWith('mxc://'))
      problems.push(`${where}.url of an ${content.msgtype} is not an mxc:// URI`);
  }
  return problems;
}
