/**
 * Contract checks against the API descriptions in `specs/` (the project's copy): load an OpenAPI document (YAML
 * or JSON), then check a recorded HTTP exchange (method, path, status, content type, body, and
 * optionally the request) against the operation it matches. Every mismatch is a violation, unless
 * the caller passes a {@link KnownDeviation} that names it: documented differences between a spec
 * and the real service are opted into explicitly, never silently passed.
 *
 * @example
 * const builds = await loadSpec('builds');
 * expectConforms(builds, { method: 'GET', path: '/builds/v1/tool/t/builds', status: 200, body },
 *   TOOLFORGE_DEVIATIONS.builds);
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import { type Dispatcher, request as undiciRequest } from 'undici';
import { parse as parseYaml } from 'yaml';

/** Root of the project's copy of the API descriptions (`<repo>/specs`). */
export const SPECS_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../specs');

/** Short names of the Toolforge specs and where their paths are mounted on the gateway. */
export const KNOWN_SPECS: Record<string, { file: string; apiRoot: string }> = {
  builds: { file: 'toolforge/builds-openapi.yaml', apiRoot: '/builds' },
  components: { file: 'toolforge/components-openapi.yaml', apiRoot: '/components' },
  jobs: { file: 'toolforge/jobs-openapi.yaml', apiRoot: '/jobs' },
  'jobs-mr262': { file: 'toolforge/jobs-openapi.mr262-publish-4.12.1.yaml', apiRoot: '/jobs' },
};

/** A loaded spec. */
export interface LoadedSpec {
  /** Short name or file it was loaded from. */
  name: string;
  /** The (normalised) document, with `$ref`s intact. */
  document: Record<string, unknown>;
  /** Path prefix under which the spec's paths are served. */
  apiRoot: string;
  /** The validator. */
  api: OpenAPIBackend;
}

/** A documented difference between a spec and the real service, accepted on purpose. */
export interface KnownDeviation {
  /** operationId the deviation applies to, or `*` for all operations of the spec. */
  operation: string;
  /** Status it applies to; any status when absent. */
  status?: number;
  /**
   * - `undeclared-status`: the status is not in the operation's responses; the body is checked
   *   against {@link schema} when given.
   * - `body`: the body follows {@link schema} instead of the declared one.
   * - `content-type`: the content type differs from the declared one (the body is not checked).
   * - `stream-error-line`: the last line of an NDJSON stream may be an error object ({@link schema}).
   */
  kind: 'undeclared-status' | 'body' | 'content-type' | 'stream-error-line';
  /** JSON Schema for the body; `$ref: '#/components/schemas/…'` refers to the spec's schemas. */
  schema?: Record<string, unknown>;
  /** Why (cite the source). */
  reason: string;
}

/** One recorded HTTP exchange. */
export interface Exchange {
  method: string;
  /** Full request path as sent, with the gateway prefix; a query string is allowed. */
  path: string;
  status: number;
  /** Response `content-type` header. */
  contentType?: string;
  /** Response body: parsed JSON, or the text for non-JSON responses. */
  body?: unknown;
  /** When given, the request is validated too (parameters and body). */
  request?: { body?: unknown; headers?: Record<string, string> } | undefined;
}

/** Options of {@link recordExchange}. */
export interface RecordOptions {
  method?: string;
  /** JSON body (serialised), or a string sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** undici dispatcher, e.g. an `Agent` with the client certificate for mTLS. */
  dispatcher?: Dispatcher;
}

/**
 * Performs a request with undici and records it as an {@link Exchange}: the JSON body parsed
 * (when the response says JSON), otherwise the text; the request body is recorded too.
 */
export async function recordExchange(
  baseUrl: string,
  path: string,
  options: RecordOptions = {},
): Promise<Exchange> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let payload: string | undefined;
  if (options.body !== undefined) {
    payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await undiciRequest(`${baseUrl}${path}`, {
    method: method as Dispatcher.HttpMethod,
    headers,
    ...(payload !== undefined ? { body: payload } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  const text = await response.body.text();
  const contentType = String(response.headers['content-type'] ?? '');
  let body: unknown = text;
  if (contentType.includes('json') && text !== '') body = JSON.parse(text);
  return {
    method,
    path,
    status: response.statusCode,
    contentType,
    body,
    ...(options.body !== undefined ? { request: { body: options.body, headers } } : {}),
  };
}

const cache = new Map<string, Promise<LoadedSpec>>();

/** OpenAPI 3.1 has no `nullable`; ajv rejects it without a `type`. Turn it into a type list or drop it. */
function normalise(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalise);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = normalise(value);
  if ('nullable' in out) {
    if (out.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
    delete out.nullable;
  }
  return out;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Gives every operation a unique operationId (openapi-backend keys its validators by it). */
function uniqueOperationIds(document: Record<string, unknown>): void {
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(
    (document.paths ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as { operationId?: string } | undefined;
      if (!operation) continue;
      let id = operation.operationId ?? `${method}_${path}`;
      // components-openapi.yaml declares `cancel_tool_deployment` twice (by id and latest).
      for (let n = 2; seen.has(id); n += 1) id = `${operation.operationId ?? `${method}_${path}`}__${n}`;
      seen.add(id);
      operation.operationId = id;
    }
  }
}

/** Formats OpenAPI uses that ajv does not know without ajv-formats. */
const FORMATS: Record<string, (value: string) => boolean> = {
  uuid: (value) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value),
  'date-time': (value) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(value) &&
    !Number.isNaN(Date.parse(value)),
  date: (value) => /^\d{4}-\d{2}-\d{2}$/.test(value),
  uri: (value) => URL.canParse(value),
  url: (value) => URL.canParse(value),
  email: (value) => /^[^@\s]+@[^@\s]+$/.test(value),
};

type AjvLike = { addFormat(name: string, format: (value: string) => boolean): unknown };

async function createBackend(document: Record<string, unknown>, apiRoot: string): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    definition: structuredClone(document) as never,
    apiRoot,
    strict: true,
    quick: true,
    ajvOpts: { allErrors: true },
    customizeAjv: (ajv) => {
      for (const [name, check] of Object.entries(FORMATS)) (ajv as unknown as AjvLike).addFormat(name, check);
      return ajv;
    },
  });
  await api.init();
  memoizeOperations(api);
  return api;
}

/**
 * openapi-backend's router rebuilds its list of operations (a lodash chain over every path of the
 * document) twice for every request it matches; a fake answering thousands of requests a second
 * (the benchmarks) spent most of its time there. The document never changes after `init()`, so the
 * list is built once.
 */
export function memoizeOperations(api: OpenAPIBackend): void {
  const operations = api.router.getOperations();
  api.router.getOperations = () => operations;
}

/**
 * Loads a spec by short name (`builds`, `components`, `jobs`, `jobs-mr262`) or by path relative to
 * the specs folder (e.g. `sourcehost/github-subset-openapi.json`, with `apiRoot` as needed).
 * Cached per process.
 */
export function loadSpec(name: string, options: { apiRoot?: string } = {}): Promise<LoadedSpec> {
  const known = KNOWN_SPECS[name];
  const file = known?.file ?? name;
  const apiRoot = options.apiRoot ?? known?.apiRoot ?? '/';
  const key = `${file}@${apiRoot}`;
  let loaded = cache.get(key);
  if (!loaded) {
    loaded = (async () => {
      const text = readFileSync(resolve(SPECS_DIR, file), 'utf8');
      const raw = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
      const document = normalise(raw) as Record<string, unknown>;
      uniqueOperationIds(document);
      return { name, document, apiRoot, api: await createBackend(document, apiRoot) };
    })();
    cache.set(key, loaded);
  }
  return loaded;
}

/**
 * A {@link LoadedSpec} from a document built in code (for a service with no published spec file,
 * e.g. the envvars API summarised in specs/toolforge/envvars-schemas.md). Not cached.
 */
export async function specFromDocument(
  name: string,
  raw: Record<string, unknown>,
  apiRoot: string,
): Promise<LoadedSpec> {
  const document = normalise(raw) as Record<string, unknown>;
  uniqueOperationIds(document);
  return { name, document, apiRoot, api: await createBackend(document, apiRoot) };
}

const deviationBackends = new Map<string, Promise<OpenAPIBackend>>();

/** Validates `body` against a deviation schema, resolving `#/components/…` in the spec. */
async function checkAgainstSchema(
  spec: LoadedSpec,
  schema: Record<string, unknown>,
  body: unknown,
): Promise<string[]> {
  const key = `${spec.name}:${JSON.stringify(schema)}`;
  let backend = deviationBackends.get(key);
  if (!backend) {
    const document = {
      openapi: spec.document.openapi,
      info: { title: 'deviation', version: '0' },
      paths: {
        '/deviation': {
          get: {
            operationId: 'deviation',
            responses: { '200': { description: '', content: { 'application/json': { schema } } } },
          },
        },
      },
      components: spec.document.components ?? {},
    };
    backend = createBackend(document, '/');
    deviationBackends.set(key, backend);
  }
  const result = (await backend).validateResponse(body, 'deviation', 200);
  return (result.errors ?? []).map((error) =>
    `${error.instancePath || '(body)'} ${error.message ?? ''}`.trim(),
  );
}

function findDeviation(
  allow: KnownDeviation[],
  operationId: string,
  status: number,
  kind: KnownDeviation['kind'],
): KnownDeviation | undefined {
  return allow.find(
    (deviation) =>
      deviation.kind === kind &&
      (deviation.operation === '*' || deviation.operation === operationId) &&
      (deviation.status === undefined || deviation.status === status),
  );
}

function declaredResponse(operation: Operation, status: number) {
  const responses = (operation.responses ?? {}) as Record<
    string,
    { content?: Record<string, { schema?: unknown }> }
  >;
  return responses[String(status)] ?? responses[`${Math.floor(status / 100)}XX`] ?? responses.default;
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Checks one exchange; returns the violations (empty when it conforms). */
export async function checkConformance(
  spec: LoadedSpec,
  exchange: Exchange,
  allow: KnownDeviation[] = [],
): Promise<string[]> {
  const [path = '', queryString = ''] = exchange.path.split('?');
  const label = `${exchange.method.toUpperCase()} ${exchange.path} → ${exchange.status}`;
  const request = {
    method: exchange.method.toLowerCase(),
    path,
    query: Object.fromEntries(new URLSearchParams(queryString)),
    headers: exchange.request?.headers ?? {},
    ...(exchange.request?.body !== undefined ? { body: exchange.request.body } : {}),
  };
  const operation = spec.api.matchOperation(request);
  if (!operation) return [`${label}: no operation of ${spec.name} matches this method and path`];
  const id = operation.operationId ?? '?';
  const violations: string[] = [];
  const add = (message: string) => violations.push(`${label} (${id}): ${message}`);

  if (exchange.request) {
    const result = spec.api.validateRequest(request, operation);
    for (const error of result.errors ?? [])
      add(`request ${error.instancePath || ''} ${error.message ?? ''}`.trim());
  }

  const declared = declaredResponse(operation, exchange.status);
  const undeclared = findDeviation(allow, id, exchange.status, 'undeclared-status');
  const bodyDeviation = findDeviation(allow, id, exchange.status, 'body');
  if (!declared) {
    if (!undeclared) {
      add(`status ${exchange.status} is not declared`);
      return violations;
    }
    if (undeclared.schema) {
      for (const error of await checkAgainstSchema(spec, undeclared.schema, exchange.body))
        add(`body ${error}`);
    }
    return violations;
  }

  const declaredTypes = Object.keys(declared.content ?? {});
  const actualType = mediaType(exchange.contentType);
  if (declaredTypes.length && exchange.contentType !== undefined && !declaredTypes.includes(actualType)) {
    if (!findDeviation(allow, id, exchange.status, 'content-type')) {
      add(`content type ${actualType} is not one of ${declaredTypes.join(', ')}`);
    }
    return violations;
  }

  if (bodyDeviation?.schema) {
    for (const error of await checkAgainstSchema(spec, bodyDeviation.schema, exchange.body))
      add(`body ${error}`);
    return violations;
  }

  if (actualType === 'application/json' || (!actualType && declaredTypes.includes('application/json'))) {
    const result = spec.api.validateResponse(exchange.body, operation, exchange.status);
    for (const error of result.errors ?? [])
      add(`body ${error.instancePath || '(root)'} ${error.message ?? ''}`.trim());
    return violations;
  }

  // A non-JSON media type with an object schema is NDJSON (builds logs): check each line.
  const schema = declared.content?.[actualType]?.schema as Record<string, unknown> | undefined;
  if (schema && schema.type !== 'string' && typeof exchange.body === 'string') {
    const lines = exchange.body.split('\n').filter((line) => line.trim() !== '');
    const streamError = findDeviation(allow, id, exchange.status, 'stream-error-line');
    for (const [index, line] of lines.entries()) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        add(`line ${index + 1} is not JSON: ${line.slice(0, 80)}`);
        continue;
      }
      const isLast = index === lines.length - 1;
      const target =
        isLast && streamError?.schema && !isLineLike(parsed, schema) ? streamError.schema : schema;
      for (const error of await checkAgainstSchema(spec, target, parsed)) add(`line ${index + 1} ${error}`);
    }
  }
  return violations;
}

/** Whether a parsed NDJSON line has only properties the line schema declares. */
function isLineLike(value: unknown, schema: Record<string, unknown>): boolean {
  const properties = Object.keys((schema.properties ?? {}) as Record<string, unknown>);
  return !!value && typeof value === 'object' && Object.keys(value).every((key) => properties.includes(key));
}

/** Like {@link checkConformance}, but throws an error listing every violation. */
export async function expectConforms(
  spec: LoadedSpec,
  exchange: Exchange,
  allow: KnownDeviation[] = [],
): Promise<void> {
  const violations = await checkConformance(spec, exchange, allow);
  if (violations.length) {
    const body = typeof exchange.body === 'string' ? exchange.body : JSON.stringify(exchange.body);
    throw new Error(`Spec violations:\n- ${violations.join('\n- ')}\nBody: ${body?.slice(0, 600)}`);
  }
}

export { TOOLFORGE_DEVIATIONS } from './openapi-deviations';
