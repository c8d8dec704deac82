import type { z } from 'zod';
import { DEFAULT_LANGUAGE } from '../i18n/languages';
import { isMessageKey, type MessageKey, t } from '../i18n/translate';

/** The shape of one argument, read from its zod schema for parsing, help and manifests. */
export interface ArgInfo {
  kind: 'string' | 'number' | 'boolean' | 'array' | 'enum' | 'unknown';
  /** For arrays: the kind of the items. */
  itemKind?: ArgInfo['kind'];
  optional: boolean;
  defaultValue?: unknown;
  /** What the argument is, in English (for manifests and docs). */
  description?: string | undefined;
  /** The catalog message of {@link ArgInfo.description}, for help in the reader's language. */
  descriptionKey?: MessageKey | undefined;
  /** Allowed values of an enum (or an array of enum). */
  choices?: string[] | undefined;
  /** Integer-only number. */
  integer?: boolean;
  /**
   * Set by buttons, not typed by people (e.g. a page cursor): left out of usage lines, help and
   * platform manifests. Declare with `.meta({ hidden: true })` as the schema's last call.
   */
  hidden?: boolean;
  /**
   * The listing its values autocomplete from (a name the suggestion lister of
   * `suggestions.ts` knows, e.g. `tools`). Declare with `.meta({ completes: 'tools' })`.
   */
  completes?: string;
  /**
   * The catalog key of what a valid value looks like (`validation-tool-name`), said when a value is
   * refused. Declare with `.meta({ invalid: 'validation-tool-name' })`.
   */
  invalid?: string;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string | number>;
  defaultValue?: unknown;
  checks?: { _zod: { def: { check: string; format?: string } } }[];
  format?: string;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** An argument's description: a `.describe()` is the catalog message of what the argument is. */
function described(key: string | undefined): Pick<ArgInfo, 'description' | 'descriptionKey'> {
  if (key === undefined) return {};
  return isMessageKey(key)
    ? { description: t(DEFAULT_LANGUAGE, key), descriptionKey: key }
    : { description: key };
}

/** Reads the kind, optionality, default, choices and description of a zod schema. */
export function argInfo(schema: z.ZodType): ArgInfo {
  let current: z.ZodType = schema;
  let optional = false;
  let defaultValue: unknown;
  const hidden = (schema.meta() as { hidden?: boolean } | undefined)?.hidden === true;
  let completes: string | undefined;
  let invalid: string | undefined;
  let description: string | undefined;
  for (let depth = 0; depth < 10; depth++) {
    description ??= current.description;
    const meta = current.meta() as { completes?: string; invalid?: string } | undefined;
    completes ??= meta?.completes;
    invalid ??= meta?.invalid;
    const def = defOf(current);
    if (def.type === 'optional' || def.type === 'nullable') {
      optional = true;
      current = def.innerType as z.ZodType;
    } else if (def.type === 'default' || def.type === 'prefault') {
      optional = true;
      defaultValue = def.defaultValue;
      current = def.innerType as z.ZodType;
    } else if (def.type === 'pipe') {
      current = def.in as z.ZodType;
    } else {
      break;
    }
  }
  const def = defOf(current);
  const base: ArgInfo = {
    kind: 'unknown',
    optional,
    defaultValue,
    ...described(description ?? current.description),
    ...(hidden ? { hidden } : {}),
    ...(completes ? { completes } : {}),
    ...(invalid ? { invalid } : {}),
  };
  switch (def.type) {
    case 'string':
      return { ...base, kind: 'string' };
    case 'number': {
      const integer =
        def.format === 'safeint' || (def.checks ?? []).some((c) => c._zod.def.format === 'safeint');
      return { ...base, kind: 'number', integer };
    }
    case 'boolean':
      return { ...base, kind: 'boolean' };
    case 'enum':
      return { ...base, kind: 'enum', choices: Object.values(def.entries ?? {}).map(String) };
    case 'array': {
      const item = argInfo(def.element as z.ZodType);
      return {
        ...base,
        kind: 'array',
        itemKind: item.kind,
        choices: item.choices,
      };
    }
    default:
      return base;
  }
}

/** `forceBuild` → `force-build`. */
export function toFlagName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replaceAll('_', '-');
}

/** `sourceUrl` → `source_url`, as positional arguments are shown in usage lines. */
export function toPositionalName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
