/**
 * Parsing of `POST /builds` bodies the way builds-api does it: echo's JSON binder (errors become a
 * bare JSON string), then the handler's own checks (`{"error":[…]}`).
 *
 * Emulator conventions: a `source_url` that is not an http(s)/git URL, or a `source_url`/`ref`
 * containing `does-not-exist`, is "unresolvable" (what `git ls-remote` failing gives: 400).
 */
import type { StoredBuildParameters } from './builds-store';

/** Envvar names accepted at build time (README: `^[A-Za-z_][A-Za-z_0-9]{2,}$`). */
export const BUILD_ENVVAR_NAME = /^[A-Za-z_][A-Za-z_0-9]{2,}$/;

/** Result of {@link parseBuildParameters}. */
export type ParsedBuildParameters =
  | { kind: 'ok'; params: StoredBuildParameters }
  /** Answered with a bare JSON string (echo binder error). */
  | { kind: 'bad-json'; message: string }
  /** Answered with `{"error":[message]}`. */
  | { kind: 'invalid'; message: string };

const KNOWN_TYPES: Record<string, 'string' | 'boolean' | 'object'> = {
  source_url: 'string',
  ref: 'string',
  image_name: 'string',
  envvars: 'object',
  use_latest_versions: 'boolean',
  use_deprecated_versions: 'boolean',
};

function goType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function binderError(message: string): ParsedBuildParameters {
  return { kind: 'bad-json', message: `Bad parameters passed: code=400, message=${message}` };
}

/** Parses and checks a start body for `tool`. */
export function parseBuildParameters(text: string, tool: string): ParsedBuildParameters {
  let body: unknown = {};
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      const offset = /position (\d+)/.exec(detail)?.[1] ?? '1';
      return binderError(`Syntax error: offset=${offset}, error=invalid JSON: ${detail}`);
    }
  }
  if (goType(body) !== 'object') {
    return binderError(
      `Unmarshal type error: expected=gen.BuildParameters, got=${goType(body)}, field=, offset=1`,
    );
  }
  const fields = body as Record<string, unknown>;
  for (const [field, expected] of Object.entries(KNOWN_TYPES)) {
    const value = fields[field];
    if (value === undefined || value === null) continue;
    const got = goType(value);
    if (got !== expected) {
      return binderError(`Unmarshal type error: expected=${expected}, got=${got}, field=${field}, offset=1`);
    }
  }
  const envvars: Record<string, string> = {};
  for (const [name, value] of Object.entries((fields.envvars as Record<string, unknown> | undefined) ?? {})) {
    if (typeof value !== 'string') {
      return binderError(
        `Unmarshal type error: expected=string, got=${goType(value)}, field=envvars.${name}, offset=1`,
      );
    }
    envvars[name] = value;
  }
  for (const name of Object.keys(envvars)) {
    if (!BUILD_ENVVAR_NAME.test(name)) {
      return {
        kind: 'invalid',
        message:
          'Not valid environment variables passed: not valid environment variable name, ' +
          `must match '${BUILD_ENVVAR_NAME.source}', got '${name}'`,
      };
    }
  }
  const sourceUrl = (fields.source_url as string | undefined) ?? '';
  const ref = (fields.ref as string | undefined) || 'HEAD';
  if (!sourceUrl) return { kind: 'invalid', message: 'Bad parameters passed: source_url is required' };
  if (
    !/^(https?|git):\/\/\S+$/.test(sourceUrl) ||
    sourceUrl.includes('does-not-exist') ||
    ref.includes('does-not-exist')
  ) {
    return {
      kind: 'invalid',
      message:
        `Unable to resolve ref '${ref}' of repository '${sourceUrl}': ` +
        'the repository does not exist, is not public, or has no such ref',
    };
  }
  return {
    kind: 'ok',
    params: {
      source_url: sourceUrl,
      ref,
      image_name: (fields.image_name as string | undefined) || `tool-${tool}`,
      envvars,
      use_latest_versions: fields.use_latest_versions === true,
      use_deprecated_versions: fields.use_deprecated_versions === true,
    },
  };
}
