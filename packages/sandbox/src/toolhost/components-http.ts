/**
 * Request parsing of the components API (FastAPI + pydantic): boolean query parameters and optional
 * JSON bodies, with failures reported the way its validation handler does (422, envelope, one
 * "Validation error at …" line per problem).
 */
import type { Context } from 'hono';

const TRUE = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

/** Result of parsing: the value, or 422 messages. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/** Parses boolean query parameters as pydantic does; absent ones are false. */
export function boolQuery(c: Context, names: string[]): Parsed<Record<string, boolean>> {
  const value: Record<string, boolean> = {};
  const errors: string[] = [];
  for (const name of names) {
    const raw = c.req.query(name);
    if (raw === undefined) {
      value[name] = false;
      continue;
    }
    const lower = raw.toLowerCase();
    if (TRUE.has(lower)) value[name] = true;
    else if (FALSE.has(lower)) value[name] = false;
    else {
      errors.push(
        `Validation error at ${name}: Input should be a valid boolean, unable to interpret input. Received value: '${raw}'`,
      );
    }
  }
  return errors.length ? { ok: false, errors } : { ok: true, value };
}

/** A required string query parameter. */
export function requiredQuery(c: Context, name: string): Parsed<string> {
  const raw = c.req.query(name);
  return raw === undefined
    ? { ok: false, errors: [`Validation error at ${name}: Field required`] }
    : { ok: true, value: raw };
}

/** Reads a JSON body; empty means `null`; invalid JSON is pydantic's `json_invalid`. */
export async function jsonBody(c: Context): Promise<Parsed<unknown>> {
  const text = await c.req.text();
  if (text.trim() === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(detail)?.[1] ?? '0';
    return { ok: false, errors: [`Invalid JSON at position ${position}: Expecting value`] };
  }
}

/** `DeploymentCreateRequest | null` → the description. */
export function deploymentDescription(body: unknown): Parsed<string> {
  if (body === null) return { ok: true, value: '' };
  if (typeof body !== 'object' || Array.isArray(body)) {
    return {
      ok: false,
      errors: [
        `Validation error at : Input should be a valid dictionary or object to extract fields from. Received value: '${JSON.stringify(body)}'`,
      ],
    };
  }
  const description = (body as { description?: unknown }).description;
  if (description === undefined || description === null) return { ok: true, value: '' };
  if (typeof description !== 'string') {
    return {
      ok: false,
      errors: [
        `Validation error at description: Input should be a valid string. Received value: '${JSON.stringify(description)}'`,
      ],
    };
  }
  return { ok: true, value: description };
}
