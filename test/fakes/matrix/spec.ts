/**
 * Validation of the requests the bot sends to the fake homeserver against the Matrix Client-Server
 * API's published OpenAPI description (`specs/platforms/matrix-client-server-openapi.json`, bundled
 * from matrix-org/matrix-spec): the route (method and path), path and query parameters, the bearer
 * token where the operation needs one, and the JSON body of the matched operation. The description
 * types event content loosely (any object), so the rules of the events the bot sends that the
 * specification states in prose are checked in ./event-rules.ts. A request a homeserver would refuse
 * becomes a violation (and is answered 400 `M_BAD_JSON`/`M_UNRECOGNIZED` by the fake).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import { memoizeOperations, SPECS_DIR } from '../../support/openapi';
import { coerce, prefixRefs } from '../spec-schemas';

/** One request as the fake received it. */
export interface MatrixRequest {
  method: string;
  /** Decoded path, e.g. `/_matrix/client/v3/rooms/!a:fake.test/send/m.room.message/t1`. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  /** Parsed JSON body; undefined for none, a Buffer for a media upload. */
  body?: unknown;
}

interface RawParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: Record<string, unknown>;
  $ref?: string;
}

interface RawResponse {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
}

interface RawOperation {
  operationId: string;
  responses?: Record<string, RawResponse>;
  parameters?: RawParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
  security?: Record<string, unknown>[];
}

interface Compiled {
  body?: ValidateFunction;
  bodyRequired: boolean;
  /** The body is bytes of any type (media upload). */
  binary: boolean;
  params: { parameter: RawParameter; validate: ValidateFunction }[];
  needsToken: boolean;
}

/** The matched operation of a request. */
export interface MatrixMatch {
  operationId: string;
  params: Record<string, string>;
}

class MatrixSpec {
  private readonly raw = new Map<string, RawOperation>();
  private readonly compiled = new Map<string, Compiled>();
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false, logger: false });

  constructor(
    private readonly document: { paths: Record<string, Record<string, unknown>>; components: unknown },
    private readonly router: OpenAPIBackend,
  ) {
    for (const format of ['mx-room-id', 'mx-user-id', 'mx-event-id', 'mx-mxc-uri', 'mx-server-name'])
      this.ajv.addFormat(format, true);
    this.ajv.addFormat('uri', (value: string) => URL.canParse(value));
    this.ajv.addSchema({ $id: 'matrix', components: document.components } as never);
    for (const item of Object.values(document.paths)) {
      for (const method of ['get', 'put', 'post', 'delete']) {
        const operation = item[method] as RawOperation | undefined;
        if (operation?.operationId) this.raw.set(operation.operationId, operation);
      }
    }
  }

  match(request: MatrixRequest): MatrixMatch | undefined {
    const req = {
      method: request.method.toLowerCase(),
      path: request.path,
      query: request.query,
      headers: {},
    };
    const operation = this.router.matchOperation(req as never) as Operation | undefined;
    if (!operation?.operationId) return undefined;
    const parsed = this.router.router.parseRequest(req as never, operation);
    return { operationId: operation.operationId, params: parsed.params as Record<string, string> };
  }

  /** Validators of the fake's own JSON answers, by `operationId status`. */
  private readonly answers = new Map<string, ValidateFunction | undefined>();

  /**
   * Problems of a JSON answer of the fake against the operation's response for that status: the fake
   * must not drift from the homeserver either. A status the operation does not list is a problem.
   */
  checkAnswer(operationId: string, status: number, body: unknown): string[] {
    const key = `${operationId} ${status}`;
    if (!this.answers.has(key)) {
      const listed = this.raw.get(operationId)?.responses?.[String(status)];
      const response = listed?.$ref
        ? (this.document.components as { responses: Record<string, RawResponse> }).responses[
            listed.$ref.replace('#/components/responses/', '')
          ]
        : listed;
      // The specification's "Rate limiting" and "Standard error response" sections apply to every
      // endpoint, also where an operation does not list them (send and sync list no 429).
      const general = status === 429 ? 'rate_limited' : status >= 400 && status < 500 ? 'error' : undefined;
      const schema =
        response?.content?.['application/json']?.schema ??
        (general ? { $ref: `#/components/schemas/${general}` } : undefined);
      this.answers.set(key, schema ? this.ajv.compile(schemaRefs(schema) as object) : undefined);
      if (!schema) return [`the fake answered ${operationId} with ${status}, which it does not list`];
    }
    const validate = this.answers.get(key);
    if (!validate) return [`the fake answered ${operationId} with ${status}, which it does not list`];
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) => `the fake's ${status} answer to ${operationId}${e.instancePath} ${e.message ?? ''}`,
    );
  }

  /** A `#/components/parameters/x` reference resolved. */
  private parameter(parameter: RawParameter): RawParameter {
    if (!parameter.$ref) return parameter;
    const name = parameter.$ref.replace('#/components/parameters/', '');
    return (this.document.components as { parameters: Record<string, RawParameter> }).parameters[
      name
    ] as RawParameter;
  }

  operation(operationId: string): Compiled {
    const known = this.compiled.get(operationId);
    if (known) return known;
    const operation = this.raw.get(operationId);
    if (!operation) throw new Error(`the Matrix description has no operation ${operationId}`);
    const content = operation.requestBody?.content ?? {};
    const json = content['application/json']?.schema;
    const compiled: Compiled = {
      ...(json ? { body: this.ajv.compile(schemaRefs(json) as object) } : {}),
      bodyRequired: operation.requestBody?.required === true,
      binary: '*/*' in content,
      params: (operation.parameters ?? [])
        .map((p) => this.parameter(p))
        .filter((p) => p.in === 'path' || p.in === 'query')
        .map((parameter) => ({
          parameter,
          validate: this.ajv.compile(schemaRefs(parameter.schema ?? {}) as object),
        })),
      needsToken: (operation.security ?? []).some((s) => 'accessTokenBearer' in s),
    };
    this.compiled.set(operationId, compiled);
    return compiled;
  }
}

let loaded: Promise<MatrixSpec> | undefined;

/** Loads the description once per process. */
export function matrixSpec(): Promise<MatrixSpec> {
  loaded ??= (async () => {
    const text = readFileSync(resolve(SPECS_DIR, 'platforms/matrix-client-server-openapi.json'), 'utf8');
    const document = JSON.parse(text);
    const router = new OpenAPIBackend({ definition: document, apiRoot: '/', validate: false, quick: true });
    await router.init();
    memoizeOperations(router);
    return new MatrixSpec(document, router);
  })();
  return loaded;
}

/** Problems of the fake's own JSON answer to an operation (see `MatrixSpec.checkAnswer`). */
export async function checkMatrixAnswer(
  operationId: string,
  status: number,
  body: unknown,
): Promise<string[]> {
  return (await matrixSpec()).checkAnswer(operationId, status, body);
}

/** The operation a request matches, and every way it breaks the description (empty when fine). */
export async function checkMatrixRequest(
  request: MatrixRequest,
): Promise<{ match?: MatrixMatch; violations: string[] }> {
  const spec = await matrixSpec();
  const label = `${request.method} ${request.path}`;
  const match = spec.match(request);
  if (!match) return { violations: [`${label}: the Client-Server API has no such route`] };
  const operation = spec.operation(match.operationId);
  const violations: string[] = [];
  const add = (what: string, validate: ValidateFunction) => {
    for (const error of validate.errors ?? [])
      violations.push(`${label} (${match.operationId}): ${what}${error.instancePath} ${error.message ?? ''}`);
  };
  const known = new Set<string>();
  for (const { parameter, validate } of operation.params) {
    if (parameter.in === 'query') known.add(parameter.name);
    const raw = parameter.in === 'path' ? match.params[parameter.name] : request.query[parameter.name];
    if (raw === undefined) {
      if (parameter.required)
        violations.push(`${label}: missing ${parameter.in} parameter ${parameter.name}`);
      continue;
    }
    if (!validate(coerce(raw, parameter.schema))) add(`${parameter.in} ${parameter.name}`, validate);
  }
  for (const name of Object.keys(request.query)) {
    if (!known.has(name)) violations.push(`${label}: query parameter ${name} is not in the description`);
  }
  if (operation.needsToken && !/^Bearer \S+$/.test(request.headers.authorization ?? ''))
    violations.push(`${label}: no access token (Authorization: Bearer …)`);
  if (request.body === undefined) {
    if (operation.bodyRequired) violations.push(`${label}: the body is required`);
  } else if (!operation.binary && operation.body && !operation.body(request.body)) {
    add('body', operation.body);
  }
  return { match, violations };
}

/** References of `node` under this description's id. */
function schemaRefs(node: unknown): unknown {
  return prefixRefs(node, 'matrix');
}
