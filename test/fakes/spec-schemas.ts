/**
 * Helpers the spec-validating fakes share: schema references made absolute under the description's
 * own id (so operation schemas reuse its compiled components), and query or path text read as the
 * type its schema declares.
 */

/** `#/components/...` → `<id>#/components/...` throughout `node`. */
export function prefixRefs(node: unknown, id: string): unknown {
  if (Array.isArray(node)) return node.map((item) => prefixRefs(item, id));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? `${id}${value}`
        : prefixRefs(value, id);
  }
  return out;
}

/** A query or path value as its schema's type (query strings are text on the wire). */
export function coerce(value: string, schema: Record<string, unknown> | undefined): unknown {
  const type = schema?.type;
  if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  return value;
}
