/**
 * Validation of Bot API requests against `specs/platforms/telegram-bot-api-openapi.json` (Bot API
 * 10.1, OpenAPI 3.0) with openapi-backend. JSON bodies are checked as they are; form and multipart
 * bodies (strings on the wire) are first decoded the way the Bot API decodes them — JSON-serialised
 * objects parsed, numbers and booleans read — and then checked against the same typed schema, so a
 * multipart `reply_markup` is held to the same rules as a JSON one.
 *
 * One deliberate addition: a parameter the method does not have is a violation. The real Bot API
 * ignores it silently, which would hide a misspelt `parse_mode` until users saw raw markup.
 */
import { type LoadedSpec, loadSpec } from '../support/openapi';

const SPEC_FILE = 'platforms/telegram-bot-api-openapi.json';

type Schema = Record<string, unknown>;

/** The loaded Bot API spec (cached per process). */
export function telegramSpec(): Promise<LoadedSpec> {
  return loadSpec(SPEC_FILE);
}

function resolveRef(spec: LoadedSpec, schema: Schema | undefined): Schema | undefined {
  let current = schema;
  for (let depth = 0; current && typeof current.$ref === 'string' && depth < 10; depth++) {
    const name = (current.$ref as string).replace('#/components/schemas/', '');
    current = ((spec.document.components as Schema).schemas as Record<string, Schema>)[name];
  }
  return current;
}

function operationOf(spec: LoadedSpec, method: string): Schema | undefined {
  const paths = spec.document.paths as Record<string, { post?: Schema }>;
  return paths[`/bot{token}/${method}`]?.post;
}

/** The typed JSON schema of a method's parameters, or undefined when it takes none. */
function parametersSchema(spec: LoadedSpec, method: string): Schema | undefined {
  const body = operationOf(spec, method)?.requestBody as
    | { content?: Record<string, { schema?: Schema }> }
    | undefined;
  return resolveRef(spec, body?.content?.['application/json']?.schema);
}

/** The JSON types a (possibly composite) schema allows. */
function typesOf(spec: LoadedSpec, schema: Schema | undefined): Set<string> {
  const resolved = resolveRef(spec, schema);
  const types = new Set<string>();
  if (!resolved) return types;
  if (typeof resolved.type === 'string') types.add(resolved.type);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    for (const part of (resolved[key] as Schema[] | undefined) ?? []) {
      for (const type of typesOf(spec, part)) types.add(type);
    }
  }
  if (types.size === 0 && resolved.properties) types.add('object');
  return types;
}

/** Decodes a form value the way the Bot API does, by the parameter's declared type. */
function decodeFormValue(spec: LoadedSpec, schema: Schema | undefined, value: string): unknown {
  const types = typesOf(spec, schema);
  if ((types.has('object') || types.has('array')) && /^\s*[[{]/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  if ((types.has('integer') || types.has('number')) && /^-?\d+(\.\d+)?$/.test(value)) {
    if (!types.has('string') || types.size === 1 || /^-?\d+$/.test(value)) return Number(value);
  }
  if (types.has('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** A request as the fake received it. */
export interface BotApiRequest {
  method: string;
  /** Parameters: parsed JSON, or form/multipart fields as strings. */
  params: Record<string, unknown>;
  /** True when `params` came from a form or multipart body (strings to decode). */
  form: boolean;
}

/** Decodes form parameters to typed values (no-op for JSON bodies). */
export async function decodeParams(request: BotApiRequest): Promise<Record<string, unknown>> {
  if (!request.form) return request.params;
  const spec = await telegramSpec();
  const properties = (parametersSchema(spec, request.method)?.properties ?? {}) as Record<string, Schema>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request.params)) {
    out[key] = typeof value === 'string' ? decodeFormValue(spec, properties[key], value) : value;
  }
  return out;
}

/** Checks a request against the spec; returns the violations (empty when it conforms). */
export async function validateRequest(method: string, params: Record<string, unknown>): Promise<string[]> {
  const spec = await telegramSpec();
  const operation = operationOf(spec, method);
  if (!operation) return [`${method}: no such Bot API method in the spec`];
  const violations: string[] = [];
  const schema = parametersSchema(spec, method);
  const known = new Set(Object.keys((schema?.properties ?? {}) as Schema));
  for (const key of Object.keys(params)) {
    if (!known.has(key)) violations.push(`${method}: unknown parameter "${key}"`);
  }
  if (schema) {
    const request = {
      method: 'post',
      path: `/botTOKEN/${method}`,
      headers: { 'content-type': 'application/json' },
      body: params,
    };
    const result = spec.api.validateRequest(request, operation.operationId as string);
    for (const error of result.errors ?? []) {
      const where = (error.instancePath || '').replace(/^\/requestBody/, '') || '(body)';
      violations.push(`${method}: ${where} ${error.message ?? ''}`.trim());
    }
  }
  return violations;
}

/** Checks a response the fake is about to send (keeps the fake itself honest). */
export async function validateResponse(method: string, status: number, body: unknown): Promise<string[]> {
  const spec = await telegramSpec();
  const operation = operationOf(spec, method);
  if (!operation) return [];
  const result = spec.api.validateResponse(body, operation.operationId as string, status);
  return (result.errors ?? []).map(
    (error) => `fake's ${method} response: ${error.instancePath || '(root)'} ${error.message ?? ''}`,
  );
}

/** The methods Deckhand calls; their validators are compiled before a test starts talking. */
const USED_METHODS = [
  'getMe',
  'getUpdates',
  'deleteWebhook',
  'setWebhook',
  'sendMessage',
  'editMessageText',
  'answerCallbackQuery',
  'sendDocument',
  'sendPhoto',
  'getFile',
  'deleteMessage',
  'setMyCommands',
];

/**
 * Compiles the request (and optionally response) validators of the methods Deckhand uses (ajv
 * compiles lazily, ~0.1–0.3 s each), so that cost falls in `beforeAll`, not inside a test's waiting.
 */
export async function warmUpValidators(responses = false): Promise<void> {
  for (const method of USED_METHODS) await validateRequest(method, {});
  if (responses) {
    for (const method of RESPONSE_CHECKED) await validateResponse(method, 200, { ok: true, result: true });
  }
}

/**
 * Methods whose answers are checked with `checkResponses`: one per shape the fake builds (User,
 * Update with every kind of message, Message, File, WebhookInfo). editMessageText and sendDocument
 * answer with the same Message builder as sendMessage, so compiling their (large) schemas again would
 * only cost time.
 */
export const RESPONSE_CHECKED = new Set(['getMe', 'getUpdates', 'sendMessage', 'getFile', 'getWebhookInfo']);
