/**
 * A strict mock server answered from OpenAPI descriptions (with openapi-backend), for contract
 * tests of Deckhand's clients: every request is matched to an operation and validated (parameters,
 * body, and `Accept` against the content types the answer is declared with: a mismatch is answered
 * 406 like Prism's "Unable to find content for …"), and every answer is spec-valid. Answers come from
 * `mockResponseForOperation` (the spec's examples) or from a {@link Variant} generated from the
 * response schema: optional fields left out, other enum values and `anyOf` branches, strings that are
 * not dates where the schema only says `string`. Each generated body is validated against the spec
 * before it is sent, so a variant can never be something the spec does not allow.
 *
 * @example
 * const mock = await startSpecMock([await loadSpec('builds')]);
 * mock.variant = { minimal: true, oddStrings: true, pick: 1 };
 * … run the client against mock.url …
 * expect(mock.violations).toEqual([]);
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Operation } from 'openapi-backend';
import { checkConformance, type LoadedSpec } from './openapi';

/** How generated answers differ from the fullest one. */
export interface Variant {
  /** Leave out every property the schema does not require (except {@link KeepOptional}). */
  minimal?: boolean;
  /** Plain strings (no enum, const, format, pattern or minimum length) become `"not-a-date"`. */
  oddStrings?: boolean;
  /** Which enum value and which `anyOf`/`oneOf` branch to take (modulo their counts). */
  pick?: number;
  /** Which `anyOf`/`oneOf` branch to take; defaults to {@link pick}. */
  branch?: number;
}

/**
 * An optional property a client needs anyway, with the reason (the real service always sends it:
 * cite the source). `schema` is the name under `components.schemas`.
 */
export interface KeepOptional {
  schema: string;
  property: string;
  reason: string;
}

/** Query parameters the real service reads though its spec does not declare them (cite the source). */
export interface UndeclaredQuery {
  /** `LoadedSpec.name`. */
  spec: string;
  operation: string;
  names: readonly string[];
  reason: string;
}

/** One request the mock saw. */
export interface MockExchange {
  method: string;
  path: string;
  accept: string;
  operationId?: string;
  status: number;
}

/** A running mock. */
export interface SpecMock {
  url: string;
  /** Requests that did not conform (and generator failures): the test expects none. */
  violations: string[];
  /** Where the mock fell back from openapi-backend's sampler to its own generator. */
  notes: string[];
  exchanges: MockExchange[];
  /** Undefined → `mockResponseForOperation`. */
  variant: Variant | undefined;
  /** Per-operation answer overrides (validated too), e.g. a log stream's lines. */
  overrides: Map<string, (generated: unknown) => unknown>;
  close(): Promise<void>;
}

type Schema = Record<string, unknown>;

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Resolves a local `$ref`, returning the schema and its name under components.schemas. */
function deref(document: Schema, schema: Schema): { schema: Schema; name?: string } {
  let current = schema;
  let name: string | undefined;
  for (let depth = 0; typeof current.$ref === 'string' && depth < 20; depth++) {
    const ref = current.$ref as string;
    const parts = ref.replace(/^#\//, '').split('/');
    let target: unknown = document;
    for (const part of parts) target = isRecord(target) ? target[part] : undefined;
    if (!isRecord(target)) throw new Error(`unresolved $ref ${ref}`);
    name = parts.at(-1);
    current = target;
  }
  return name === undefined ? { schema: current } : { schema: current, name };
}

const SAMPLE_STRINGS: Record<string, string> = {
  'date-time': '2026-05-13T10:15:00Z',
  date: '2026-05-13',
  uri: 'https://gitlab.wikimedia.org/toolforge-repos/sample',
  url: 'https://gitlab.wikimedia.org/toolforge-repos/sample',
  uuid: '0b4e5b8e-8d8e-4c1f-9d0a-3f3c7b1e2a10',
  email: 'someone@example.org',
};

/** Generates a value for `schema` per `variant`. */
export function generate(
  document: Schema,
  input: Schema,
  variant: Variant,
  keep: readonly KeepOptional[] = [],
  depth = 0,
  inherited?: string,
): unknown {
  if (depth > 40) return undefined;
  const resolved = deref(document, input);
  const schema = resolved.schema;
  // Inline parts of an `allOf` belong to the named schema they are in (for {@link KeepOptional}).
  const name = resolved.name ?? inherited;
  const pick = variant.pick ?? 0;
  const branch = variant.branch ?? pick;
  const next = (s: unknown) => generate(document, s as Schema, variant, keep, depth + 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[pick % schema.enum.length];
  if (Array.isArray(schema.allOf)) {
    const merged: Schema = {};
    for (const part of schema.allOf as Schema[]) {
      const value = generate(document, part, variant, keep, depth + 1, name);
      if (isRecord(value)) Object.assign(merged, value);
    }
    return merged;
  }
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(union) && union.length) return next(union[branch % union.length]);
  let type = schema.type;
  if (Array.isArray(type)) {
    const nonNull = type.filter((t) => t !== 'null');
    type = variant.minimal && type.includes('null') ? 'null' : nonNull[0];
  }
  if (type === undefined && isRecord(schema.properties)) type = 'object';
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return pick % 2 === 1;
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'array': {
      // Items left open by the spec: take its example (any value would be valid).
      const example = Array.isArray(schema.example) ? schema.example : undefined;
      if (schema.items === undefined) return example ?? [];
      const item = next(schema.items);
      return item === undefined ? [] : [item];
    }
    case 'string': {
      const format = typeof schema.format === 'string' ? schema.format : undefined;
      if (format && SAMPLE_STRINGS[format]) return SAMPLE_STRINGS[format];
      const example = Array.isArray(schema.examples) ? schema.examples[0] : schema.example;
      if (typeof schema.pattern === 'string') {
        const pattern = new RegExp(schema.pattern);
        const fit = [example, schema.default, 'API_TOKEN', 'sample'].find(
          (candidate) => typeof candidate === 'string' && pattern.test(candidate),
        );
        if (fit === undefined) throw new Error(`no sample string for pattern ${schema.pattern}`);
        return fit;
      }
      const constrained = format || (schema.minLength as number) > 10;
      if (variant.oddStrings && !constrained) return 'not-a-date';
      if (typeof example === 'string') return example;
      if (typeof schema.default === 'string') return schema.default;
      return 'sample';
    }
    case 'object': {
      const out: Schema = {};
      const required = new Set((schema.required as string[] | undefined) ?? []);
      for (const [property, sub] of Object.entries((schema.properties ?? {}) as Schema)) {
        const kept = keep.some((k) => k.schema === name && k.property === property);
        if (variant.minimal && !required.has(property) && !kept) continue;
        const value = next(sub);
        if (value !== undefined) out[property] = value;
      }
      if (isRecord(schema.additionalProperties) && !variant.minimal) {
        const value = next(schema.additionalProperties);
        if (value !== undefined) out[`extra-${depth}`] = value;
      }
      if (isRecord(schema.additionalProperties) && (schema.minProperties as number) > 0) {
        if (Object.keys(out).length === 0) out.item = next(schema.additionalProperties);
      }
      return out;
    }
    default:
      return variant.oddStrings ? 'not-a-date' : {};
  }
}

/** Whether an `Accept` header admits `type` (`*\/*`, `text/*`, exact; q=0 excluded). */
export function accepts(accept: string | undefined, type: string): boolean {
  if (!accept) return true;
  const [major] = type.split('/');
  return accept.split(',').some((range) => {
    const [media = '', ...params] = range.trim().toLowerCase().split(';');
    if (params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p))) return false;
    // A `+json` vendor type (RFC 6839 suffix, e.g. GitHub's `application/vnd.github.v3+json`, which
    // its REST docs name as the JSON media type) asks for JSON.
    const jsonSuffix = type === 'application/json' && /^application\/[^/]+\+json$/.test(media);
    return media === '*/*' || media === type || media === `${major}/*` || jsonSuffix;
  });
}

function success(operation: Operation): { status: number; types: Record<string, { schema?: Schema }> } {
  const responses = (operation.responses ?? {}) as Record<
    string,
    { content?: Record<string, { schema?: Schema }> }
  >;
  const code = Object.keys(responses).find((key) => /^2\d\d$/.test(key)) ?? '200';
  return { status: Number(code), types: responses[code]?.content ?? {} };
}

function rawResponseSchema(spec: LoadedSpec, operation: Operation, status: number, type: string): Schema {
  const paths = spec.document.paths as Record<string, Record<string, Schema>>;
  const raw = paths[operation.path]?.[operation.method] as Schema | undefined;
  const responses = (raw?.responses ?? {}) as Record<string, Schema>;
  const response = deref(spec.document, responses[String(status)] ?? {}).schema;
  const content = (response.content ?? {}) as Record<string, Schema>;
  return (content[type]?.schema as Schema | undefined) ?? {};
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts a mock answering every operation of `specs` (each under its `apiRoot`). */
export async function startSpecMock(
  specs: LoadedSpec[],
  options: { keep?: readonly KeepOptional[]; undeclaredQuery?: readonly UndeclaredQuery[] } = {},
): Promise<SpecMock> {
  const keep = options.keep ?? [];
  const undeclared = options.undeclaredQuery ?? [];
  const mock: SpecMock = {
    url: '',
    violations: [],
    notes: [],
    exchanges: [],
    variant: undefined,
    overrides: new Map(),
    close: async () => {},
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://mock');
    const accept = String(req.headers.accept ?? '');
    const label = `${req.method} ${url.pathname}`;
    const send = (status: number, type: string, body: string, operationId?: string) => {
      mock.exchanges.push({
        method: req.method ?? '',
        path: url.pathname + url.search,
        accept,
        status,
        ...(operationId ? { operationId } : {}),
      });
      res.writeHead(status, { 'content-type': type }).end(body);
    };
    const text = await readBody(req);
    const spec = specs.find((s) => url.pathname.startsWith(`${s.apiRoot}/`));
    const request = {
      method: (req.method ?? 'GET').toLowerCase(),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers as Record<string, string>,
      ...(text ? { body: JSON.parse(text) as unknown } : {}),
    };
    const operation = spec?.api.matchOperation(request);
    if (!spec || !operation) {
      mock.violations.push(`${label}: no operation of the specs matches`);
      return send(404, 'application/json', JSON.stringify({ error: ['no such operation'] }));
    }
    const id = operation.operationId ?? '?';
    const allowed = undeclared.filter((u) => u.spec === spec.name && u.operation === id);
    const declaredOnly = {
      ...request,
      query: Object.fromEntries(
        Object.entries(request.query).filter(([name]) => !allowed.some((u) => u.names.includes(name))),
      ),
    };
    const validation = spec.api.validateRequest(declaredOnly, operation);
    if (validation.errors?.length) {
      const errors = validation.errors.map((e) => `${e.instancePath} ${e.message}`).join('; ');
      mock.violations.push(`${label} (${id}): request does not validate: ${errors}`);
      return send(400, 'application/json', JSON.stringify({ error: [errors] }), id);
    }
    const { status, types } = success(operation);
    if (Object.keys(types).length === 0) return send(status, 'text/plain', '', id);
    const type = Object.keys(types).find((t) => accepts(accept, t));
    if (!type) {
      mock.violations.push(
        `${label} (${id}): Accept "${accept}" admits none of ${Object.keys(types).join(', ')}`,
      );
      return send(406, 'text/plain', `Unable to find content for ${accept}`, id);
    }
    let body: unknown;
    try {
      // The schema as written (with its `$ref`s, so schema names are known), not openapi-backend's
      // dereferenced copy.
      const schema = rawResponseSchema(spec, operation, status, type);
      body = mock.variant
        ? generate(spec.document, schema, mock.variant, keep)
        : spec.api.mockResponseForOperation(id, { code: status, mediaType: type }).mock;
      if (
        !mock.variant &&
        (
          await checkConformance(spec, {
            method: request.method,
            path: url.pathname,
            status,
            contentType: type,
            body,
          })
        ).length
      ) {
        // openapi-backend's sampler ignores some keywords (minProperties, pattern): use ours then.
        mock.notes.push(`${id}: mockResponseForOperation gave a spec-invalid answer; generated one instead`);
        body = generate(spec.document, schema, {}, keep);
      }
      const override = mock.overrides.get(id);
      if (override) body = override(body);
    } catch (error) {
      mock.violations.push(`${label} (${id}): cannot generate an answer: ${(error as Error).message}`);
      return send(500, 'application/json', '{}', id);
    }
    // A non-JSON type with an object schema is NDJSON (log streams): one line per entry.
    const json = type === 'application/json';
    const lines = Array.isArray(body) && !json ? body : [body];
    // A string for a text type (a `type: string` schema) is the body itself.
    const payload = json
      ? JSON.stringify(body)
      : typeof body === 'string'
        ? body
        : lines.map((entry) => `${JSON.stringify(entry)}\n`).join('');
    const problems = await checkConformance(spec, {
      method: request.method,
      path: url.pathname,
      status,
      contentType: type,
      body: json ? body : payload,
    });
    for (const problem of problems) mock.violations.push(`generated answer is not spec-valid: ${problem}`);
    return send(status, json ? type : `${type}; charset=utf-8`, payload, id);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mock.close = () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  return mock;
}
