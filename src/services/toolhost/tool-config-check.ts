/**
 * Checks a components configuration (`toolforge.yaml`) before it is sent, against the JSON Schema the
 * components API publishes for it (C `openapi/tool-config-schema.json`, copied from
 * specs/toolforge/components-tool-config-schema.json; a test keeps the two identical), converted with
 * zod's own JSON Schema reader, plus the model validators the schema cannot express
 * (C `components/models/api_models.py`: health checks, publish, `reuse_from`).
 *
 * Fields the schema does not know are not errors: the service drops them with a warning
 * "Unknown field a.b, skipped" (C `components/api/tool_router.py _get_unknown_config_fields`), and
 * this check lists them the same way so the confirmation can say so first.
 */
import { z } from 'zod';
import { type Translator, translator } from '../../i18n/translate';
import type { ToolConfig } from './components-schemas';
import schemaJson from './tool-config-schema.json';

type JsonSchema = Parameters<typeof z.fromJSONSchema>[0];

let compiled: z.ZodType | undefined;
const toolConfigSchema = (): z.ZodType => {
  compiled ??= z.fromJSONSchema(schemaJson as unknown as JsonSchema);
  return compiled;
};

/** Outcome of {@link checkToolConfig}. */
export type ToolConfigCheck =
  | { ok: true; config: ToolConfig; unknownFields: string[] }
  | { ok: false; problems: string[] };

const where = (say: Translator, path: readonly PropertyKey[]) =>
  path.length ? path.map(String).join(' → ') : say.t('toolhost-api-config-top-level');

/** The issues of the union branch that got furthest (fewest problems), so the message is about the shape meant. */
function flatten(
  say: Translator,
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[] = [],
): string[] {
  const out: string[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const branches = issue.errors.map((branch) => flatten(say, branch, path));
      const best = branches.reduce((a, b) => (b.length < a.length ? b : a));
      out.push(...best);
      continue;
    }
    out.push(`${where(say, path)}: ${issue.message.replace(/^Invalid input: /, '')}`);
  }
  return out;
}

type Run = Record<string, unknown>;
type Component = { build?: Record<string, unknown>; run?: Run };

/** The model validators of the real service, worded as Deckhand says them. */
function modelProblems(say: Translator, config: { components: Record<string, Component> }): string[] {
  const problems: string[] = [];
  for (const [name, component] of Object.entries(config.components)) {
    const run = component.run ?? {};
    const at = `components → ${name} → run`;
    const tcpPort = run.port !== undefined && run.port_protocol !== 'udp';
    if (run.health_check_script && run.health_check_http)
      problems.push(say.t('toolhost-api-config-two-health-checks', at));
    if (run.health_check_http && !tcpPort) problems.push(say.t('toolhost-api-config-health-check-port', at));
    if (run.publish !== undefined && run.port === undefined)
      problems.push(say.t('toolhost-api-config-publish-port', at));
    else if (run.publish !== undefined && (run.port_protocol ?? 'tcp') !== 'tcp')
      problems.push(say.t('toolhost-api-config-publish-tcp', at));
  }
  const reused = new Set(
    Object.values(config.components)
      .map((component) => component.build?.reuse_from)
      .filter((name): name is string => typeof name === 'string'),
  );
  for (const name of reused) {
    const target = config.components[name];
    if (!target) problems.push(say.t('toolhost-api-config-reuse-missing', name));
    else if (typeof target.build?.reuse_from === 'string')
      problems.push(say.t('toolhost-api-config-reuse-chain', name));
  }
  return problems;
}

/** Fields of `given` that the parsed configuration does not have (dotted paths). */
function unknownFields(given: unknown, parsed: unknown, prefix = ''): string[] {
  if (!given || typeof given !== 'object' || Array.isArray(given)) return [];
  const known = (parsed ?? {}) as Record<string, unknown>;
  const out: string[] = [];
  for (const [key, value] of Object.entries(given as Record<string, unknown>)) {
    if (!(key in known)) out.push(`${prefix}${key}`);
    else out.push(...unknownFields(value, known[key], `${prefix}${key}.`));
  }
  return out;
}

type SchemaNode = { properties?: Record<string, unknown>; additionalProperties?: unknown; anyOf?: unknown[] };

/** The object shapes a schema node allows, with nested `anyOf` spread out. */
function shapes(node: unknown): SchemaNode[] {
  const n = (node ?? {}) as SchemaNode;
  return n.anyOf ? n.anyOf.flatMap(shapes) : [n];
}

/** Strips the properties the schema does not declare, as pydantic does on input. */
function knownOnly(value: unknown, schema: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const branches = shapes(schema);
  const record = value as Record<string, unknown>;
  const map = branches.find(
    (b) => !b.properties && b.additionalProperties && typeof b.additionalProperties === 'object',
  );
  if (map) {
    return Object.fromEntries(
      Object.entries(record).map(([k, v]) => [k, knownOnly(v, map.additionalProperties)]),
    );
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(record)) {
    const sub = branches.map((b) => b.properties?.[key]).filter((s) => s !== undefined);
    if (sub.length) out[key] = knownOnly(v, { anyOf: sub });
  }
  return out;
}

/**
 * Checks a parsed `toolforge.yaml` (or JSON). On success the configuration is returned without the
 * unknown fields (which are listed), exactly what the service would store. The problems are written
 * in `say`'s language (the schema's own messages stay as the schema says them).
 */
export function checkToolConfig(value: unknown, say: Translator = translator('en')): ToolConfigCheck {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, problems: [say.t('toolhost-api-config-not-a-mapping')] };
  }
  const result = toolConfigSchema().safeParse(value);
  if (!result.success) return { ok: false, problems: [...new Set(flatten(say, result.error.issues))] };
  const config = knownOnly(value, schemaJson) as { components: Record<string, Component> };
  const problems = modelProblems(say, config);
  if (problems.length) return { ok: false, problems };
  return { ok: true, config: config as unknown as ToolConfig, unknownFields: unknownFields(value, config) };
}
