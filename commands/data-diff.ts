/**
 * What changes between two plain-data values (parsed YAML/JSON), by field path: each field that
 * appears, goes or changes value is one line, `+`/`-` prefixed as in a diff. Mappings are compared
 * key by key; anything else (lists, scalars) as a whole value.
 */

/** One changed field. */
export interface FieldChange {
  /** Dotted path, e.g. `components.web.run.command`. */
  path: string;
  before?: unknown;
  after?: unknown;
}

const isMapping = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const same = (a: unknown, b: unknown): boolean => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (isMapping(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .filter((k) => value[k] !== undefined)
        .sort()
        .map((k) => [k, sorted(value[k])]),
    );
  }
  return value;
}

/** The fields that differ between `before` and `after`, in a stable order. */
export function fieldChanges(before: unknown, after: unknown, prefix = ''): FieldChange[] {
  if (isMapping(before) && isMapping(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => {
      const path = prefix ? `${prefix}.${key}` : key;
      const a = before[key];
      const b = after[key];
      if (a === undefined && b === undefined) return [];
      if (a === undefined) return [{ path, after: b }];
      if (b === undefined) return [{ path, before: a }];
      return fieldChanges(a, b, path);
    });
  }
  return same(before, after) ? [] : [{ path: prefix, before, after }];
}

const show = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(sorted(value));
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
};

/** The changes as diff lines: `- path: old` then `+ path: new`. */
export function diffLines(changes: readonly FieldChange[]): string[] {
  return changes.flatMap((change) => [
    ...(change.before !== undefined ? [`- ${change.path}: ${show(change.before)}`] : []),
    ...(change.after !== undefined ? [`+ ${change.path}: ${show(change.after)}`] : []),
  ]);
}
