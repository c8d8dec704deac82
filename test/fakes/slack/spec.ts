/**
 * Validates Web API requests against Slack's own API description
 * (`specs/platforms/slack-web-openapi.json`). The Web API takes form-encoded bodies, so each
 * operation's form schema is what requests are checked against: form values (all strings on the
 * wire) are converted to the declared boolean/integer/number types first, and a value that does not
 * convert fails validation, as the real API refuses it.
 *
 * Three methods the SDK uses are missing from the description (its README says so and gives their
 * parameters): `files.getUploadURLExternal`, `files.completeUploadExternal` and
 * `apps.connections.open`; they are added here from those notes and Slack's method docs. Two are
 * described as a GET only (`chat.getPermalink`, `users.info`) and added as the form POST the SDK sends.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OpenAPIBackend } from 'openapi-backend';
import { memoizeOperations, SPECS_DIR } from '../../support/openapi';

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  [key: string]: unknown;
};
type Operation = {
  operationId?: string;
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  [key: string]: unknown;
};

const OK_RESPONSE = {
  '200': {
    description: 'ok',
    content: { 'application/json': { schema: { type: 'object', required: ['ok'] } } },
  },
};

function formOperation(
  operationId: string,
  properties: Record<string, Schema>,
  required: string[],
): Operation {
  return {
    operationId,
    security: [{ bearer: [] }],
    responses: OK_RESPONSE,
    requestBody: {
      required: required.length > 0,
      content: {
        'application/x-www-form-urlencoded': { schema: { type: 'object', properties, required } },
      },
    },
  };
}

/** Methods the description lacks, from its README and Slack's method reference. */
const ADDED: Record<string, Operation> = {
  '/api/files.getUploadURLExternal': formOperation(
    'files_getUploadURLExternal_post',
    {
      filename: { type: 'string' },
      length: { type: 'integer' },
      alt_txt: { type: 'string' },
      alt_text: { type: 'string' },
      snippet_type: { type: 'string' },
    },
    ['filename', 'length'],
  ),
  '/api/files.completeUploadExternal': formOperation(
    'files_completeUploadExternal_post',
    {
      files: { type: 'string' },
      channel_id: { type: 'string' },
      initial_comment: { type: 'string' },
      thread_ts: { type: 'string' },
      blocks: { type: 'string' },
    },
    ['files'],
  ),
  '/api/apps.connections.open': formOperation('apps_connections_open_post', {}, []),
  // Described as a GET with query arguments only; the Web API takes every method as a form POST too,
  // which is how the SDK calls it, so its arguments are checked as the form.
  '/api/chat.getPermalink': formOperation(
    'chat_getPermalink_post',
    { channel: { type: 'string' }, message_ts: { type: 'string' } },
    ['channel', 'message_ts'],
  ),
  // The same: a GET in the description (`token`, `include_locale`, `user`), a form POST from the SDK.
  // `user` is optional there, but without it Slack answers `user_not_found`: Deckhand always sends it.
  '/api/users.info': formOperation(
    'users_info_post',
    { user: { type: 'string' }, include_locale: { type: 'boolean' } },
    ['user'],
  ),
};

/**
 * Arguments added to methods after the description was last changed (2020), from Slack's method
 * reference: message `metadata` (JSON: `event_type`, `event_payload`) on chat.postMessage and
 * chat.update, `include_all_metadata` on conversations.history and conversations.replies (2022,
 * docs.slack.dev/messaging/message-metadata).
 */
const ADDED_ARGUMENTS: Record<string, Record<string, Schema>> = {
  '/api/chat.postMessage': { metadata: { type: 'string' } },
  '/api/chat.update': { metadata: { type: 'string' } },
  '/api/conversations.history': { include_all_metadata: { type: 'boolean' } },
  '/api/conversations.replies': { include_all_metadata: { type: 'boolean' } },
};

/** Converts form strings to the types the schema declares; unconvertible values stay strings. */
function coerce(body: Record<string, string>, schema: Schema | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const type = schema?.properties?.[key]?.type;
    if (type === 'boolean' && /^(true|false|1|0)$/.test(value)) out[key] = value === 'true' || value === '1';
    else if ((type === 'integer' || type === 'number') && value.trim() !== '' && !Number.isNaN(Number(value)))
      out[key] = Number(value);
    else out[key] = value;
  }
  return out;
}

/** A loaded description that checks one request. */
export interface SlackSpec {
  /** Violations of one Web API call (empty when it conforms). */
  check(method: string, body: Record<string, string>): string[];
}

let loaded: Promise<SlackSpec> | undefined;

/** Loads the Slack Web API description once per process. */
export function loadSlackSpec(): Promise<SlackSpec> {
  loaded ??= (async () => {
    const document = JSON.parse(
      readFileSync(resolve(SPECS_DIR, 'platforms/slack-web-openapi.json'), 'utf8'),
    ) as { paths: Record<string, Record<string, Operation>> };
    Object.assign(
      document.paths,
      Object.fromEntries(Object.entries(ADDED).map(([p, op]) => [p, { post: op }])),
    );
    const formSchemas = new Map<string, Schema | undefined>();
    for (const [path, item] of Object.entries(document.paths)) {
      const post = item.post;
      if (!post) continue;
      const form = post.requestBody?.content['application/x-www-form-urlencoded']?.schema;
      if (form && ADDED_ARGUMENTS[path]) {
        form.properties = { ...form.properties, ...ADDED_ARGUMENTS[path] };
      }
      formSchemas.set(path, form);
      // openapi-backend validates an object body against the JSON media type: give it the form schema.
      if (post.requestBody && form) {
        post.requestBody = {
          ...post.requestBody,
          content: { 'application/json': { schema: form } },
        };
      }
    }
    const api = new OpenAPIBackend({
      definition: document as never,
      apiRoot: '/',
      quick: true,
      ajvOpts: { allErrors: true, strict: false },
    });
    await api.init();
    memoizeOperations(api);
    return {
      check(method, body) {
        const path = `/api/${method}`;
        if (!formSchemas.has(path)) return [`${method}: not a method of the Slack Web API description`];
        const request = {
          method: 'post',
          path,
          query: {},
          headers: { 'content-type': 'application/json' },
          body: coerce(body, formSchemas.get(path)),
        };
        const operation = api.matchOperation(request);
        if (!operation) return [`${method}: no operation matches POST ${path}`];
        const result = api.validateRequest(request, operation);
        return (result.errors ?? []).map((e) =>
          `${method}: ${e.instancePath || '(body)'} ${e.message ?? ''}`.trim(),
        );
      },
    };
  })();
  return loaded;
}
