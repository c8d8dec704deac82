/**
 * Validation of the requests the bot sends to the fake against Discord's own OpenAPI description
 * (`specs/platforms/discord-openapi.json`, API v10): path and query parameters and the JSON
 * body (or the `payload_json` of a multipart body) of the matched operation, plus the documented
 * limits the description does not encode (2,000 characters of content, 6,000 characters of embeds
 * per message, five action rows of five buttons). A request the real platform would refuse becomes
 * a violation.
 *
 * The schemas are compiled with ajv against the description's shared `components` (compiled once),
 * not per operation: Discord's schemas are large, and per-operation dereferenced copies took seconds
 * to compile, stalling the bot that runs in the same process.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import { memoizeOperations, SPECS_DIR } from '../../support/openapi';
import { coerce, prefixRefs } from '../spec-schemas';

/** Path prefix under which the fake serves the REST API (discord.js requests `/api/v10/...`). */
export const API_ROOT = '/api/v10';

/** One request as the fake received it. */
export interface SpecRequest {
  method: string;
  /** Decoded path, e.g. `/api/v10/webhooks/1/tok/messages/@original`. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Parsed JSON body (or the `payload_json` of a multipart body). */
  body?: unknown;
}

/** The matched operation of a request, for the fake's routing decisions (auth). */
export interface SpecMatch {
  operationId: string;
  /** True when the operation needs `Authorization: Bot <token>`. */
  botAuth: boolean;
}

interface RawParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: Record<string, unknown>;
}

interface RawOperation {
  operationId: string;
  parameters?: RawParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
  security?: Record<string, unknown>[];
}

interface CompiledOperation {
  body?: ValidateFunction;
  bodyRequired: boolean;
  params: { parameter: RawParameter; validate: ValidateFunction }[];
  botAuth: boolean;
}

const INT64 = /^-?\d{1,19}$/;

/** Operations the bot uses, compiled when the spec loads (so no request pays for it mid-test). */
const USED_OPERATIONS = [
  'get_bot_gateway',
  'create_interaction_response',
  'update_original_webhook_message',
  'delete_original_webhook_message',
  'execute_webhook',
  'update_webhook_message',
  'create_message',
  'update_message',
  'delete_message',
  'bulk_set_application_commands',
  'bulk_set_guild_application_commands',
  'get_my_application',
];

class DiscordSpec {
  private readonly raw = new Map<
    string,
    { path: string; method: string; operation: RawOperation; shared: RawParameter[] }
  >();
  private readonly compiled = new Map<string, CompiledOperation>();
  private readonly ajv: Ajv2020;

  constructor(
    document: { paths: Record<string, Record<string, unknown>>; components: unknown },
    private readonly router: OpenAPIBackend,
  ) {
    this.ajv = new Ajv2020({ allErrors: true, strict: false, logger: false, coerceTypes: false });
    this.ajv.addFormat('snowflake', /^(0|[1-9][0-9]*)$/);
    this.ajv.addFormat('nonce', (value: string) => value.length <= 25);
    this.ajv.addFormat('uri', (value: string) => URL.canParse(value));
    this.ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
    this.ajv.addFormat('int32', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
    });
    this.ajv.addFormat('int64', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) || INT64.test(String(n)),
    });
    this.ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
    this.ajv.addSchema({ $id: 'discord', components: document.components } as never);
    for (const [path, item] of Object.entries(document.paths)) {
      const shared = (item.parameters ?? []) as RawParameter[];
      for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
        const operation = item[method] as RawOperation | undefined;
        if (operation?.operationId) this.raw.set(operation.operationId, { path, method, operation, shared });
      }
    }
    for (const id of USED_OPERATIONS) this.operation(id);
  }

  /** Errors of `value` against a component schema (`#/components/schemas/<name>`). */
  checkSchema(name: string, value: unknown): string[] {
    const validate = this.ajv.getSchema(`discord#/components/schemas/${name}`);
    if (!validate) throw new Error(`the Discord spec has no schema ${name}`);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`.trim());
  }

  match(request: SpecRequest): { operationId: string; params: Record<string, string> } | undefined {
    const req = {
      method: request.method.toLowerCase(),
      path: request.path,
      query: request.query,
      headers: request.headers,
    };
    const operation = this.router.matchOperation(req) as Operation | undefined;
    if (!operation?.operationId) return undefined;
    const parsed = this.router.router.parseRequest(req, operation);
    return { operationId: operation.operationId, params: parsed.params as Record<string, string> };
  }

  operation(operationId: string): CompiledOperation {
    let compiled = this.compiled.get(operationId);
    if (compiled) return compiled;
    const raw = this.raw.get(operationId);
    if (!raw) throw new Error(`the Discord spec has no operation ${operationId}`);
    const { operation, shared } = raw;
    const jsonSchema = operation.requestBody?.content?.['application/json']?.schema;
    const parameters = [...shared, ...(operation.parameters ?? [])];
    const security = operation.security ?? [];
    compiled = {
      ...(jsonSchema ? { body: this.ajv.compile(schemaRefs(jsonSchema) as object) } : {}),
      bodyRequired: operation.requestBody?.required === true,
      params: parameters
        .filter((p) => p.in === 'path' || p.in === 'query')
        .map((parameter) => ({
          parameter,
          validate: this.ajv.compile(schemaRefs(parameter.schema ?? {}) as object),
        })),
      botAuth: security.length > 0 && security.every((alternative) => 'BotToken' in alternative),
    };
    this.compiled.set(operationId, compiled);
    return compiled;
  }
}

let loaded: Promise<DiscordSpec> | undefined;

/** Loads and compiles the Discord description once per process. */
export function discordSpec(): Promise<DiscordSpec> {
  loaded ??= (async () => {
    const text = readFileSync(resolve(SPECS_DIR, 'platforms/discord-openapi.json'), 'utf8');
    const document = JSON.parse(text);
    const router = new OpenAPIBackend({
      definition: document,
      apiRoot: API_ROOT,
      validate: false,
      quick: true,
    });
    await router.init();
    memoizeOperations(router);
    return new DiscordSpec(document, router);
  })();
  return loaded;
}

/** Finds the operation of a request; undefined when Discord has no such route. */
export async function matchDiscordOperation(request: SpecRequest): Promise<SpecMatch | undefined> {
  const spec = await discordSpec();
  const match = spec.match(request);
  if (!match) return undefined;
  return { operationId: match.operationId, botAuth: spec.operation(match.operationId).botAuth };
}

/** Every way the request breaks the description or Discord's documented limits (empty when fine). */
export async function validateDiscordRequest(request: SpecRequest): Promise<string[]> {
  const spec = await discordSpec();
  const label = `${request.method} ${request.path}`;
  const match = spec.match(request);
  if (!match) return [`${label}: Discord has no such route`];
  const operation = spec.operation(match.operationId);
  const violations: string[] = [];
  const add = (what: string, validate: ValidateFunction) => {
    for (const error of validate.errors ?? []) {
      violations.push(
        `${label} (${match.operationId}): ${what}${error.instancePath} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
      );
    }
  };
  for (const { parameter, validate } of operation.params) {
    const raw = parameter.in === 'path' ? match.params[parameter.name] : request.query[parameter.name];
    if (raw === undefined) {
      if (parameter.required)
        violations.push(`${label}: missing ${parameter.in} parameter ${parameter.name}`);
      continue;
    }
    if (!validate(coerce(raw, parameter.schema))) add(`${parameter.in} ${parameter.name}`, validate);
  }
  if (request.body === undefined) {
    if (operation.bodyRequired) violations.push(`${label}: the body is required`);
  } else if (operation.body && !operation.body(request.body)) {
    add('body', operation.body);
  }
  for (const problem of documentedLimits(request.body)) violations.push(`${label}: ${problem}`);
  return violations;
}

interface EmbedLike {
  title?: string;
  description?: string;
  fields?: { name?: string; value?: string }[];
  footer?: { text?: string };
  author?: { name?: string };
}

/**
 * Limits from Discord's documentation that the OpenAPI file does not carry (it allows 4,000
 * characters of content and 40 top-level components because of newer message flags).
 */
function documentedLimits(body: unknown): string[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  const problems: string[] = [];
  const message = ((body as { data?: unknown }).data ?? body) as {
    content?: string;
    embeds?: EmbedLike[];
    components?: { type?: number; components?: unknown[] }[];
    flags?: number;
  };
  if (typeof message.content === 'string' && message.content.length > 2000) {
    problems.push(`content has ${message.content.length} characters (Discord allows 2,000)`);
  }
  if (Array.isArray(message.embeds)) {
    let total = 0;
    for (const embed of message.embeds) {
      total += (embed.title ?? '').length + (embed.description ?? '').length;
      total += (embed.footer?.text ?? '').length + (embed.author?.name ?? '').length;
      for (const field of embed.fields ?? []) {
        total += (field.name ?? '').length + (field.value ?? '').length;
        if (!field.name || !field.value) problems.push('an embed field has an empty name or value');
        if ((field.value ?? '').length > 1024) problems.push('an embed field value is over 1,024 characters');
      }
    }
    if (total > 6000) problems.push(`embeds have ${total} characters in all (Discord allows 6,000)`);
  }
  const isComponentsV2 = ((message.flags ?? 0) & (1 << 15)) !== 0;
  if (Array.isArray(message.components) && !isComponentsV2) {
    const rows = message.components.filter((c) => c.type === 1);
    if (rows.length > 5) problems.push(`${rows.length} action rows (Discord allows 5)`);
    for (const row of rows) {
      if ((row.components?.length ?? 0) > 5) problems.push('an action row has more than 5 buttons');
    }
  }
  return problems;
}

/**
 * Checks one of the fake's answers against a schema of the description (e.g.
 * `PrivateApplicationResponse`), for the fake's own tests: the fake must not drift from Discord either.
 */
export async function checkDiscordSchema(name: string, value: unknown): Promise<string[]> {
  return (await discordSpec()).checkSchema(name, value);
}

/** References of `node` under this description's id. */
function schemaRefs(node: unknown): unknown {
  return prefixRefs(node, 'discord');
}
