import type { z } from 'zod';
import { isMessageKey, type MessageKey } from '../i18n/translate';
import type { AnyCommand } from './command';
import { didYouMean } from './did-you-mean';
import { type DeckhandError, UsageError } from './errors';
import { usageLine } from './help';
import { issuePhrase } from './issue-words';
import { argInfo, toFlagName, toPositionalName } from './schema-info';
import type { Token } from './tokenize';

/** Options for binding words to a command's arguments. */
export interface BindOptions {
  /** Tool bound to the conversation (`/tool bind`), used when `<tool>` is left out. */
  boundTool?: string;
}

type Raw = Record<string, unknown>;

/**
 * Maps the words after a command name onto its argument object: positionals in order, `--flag value`,
 * `--flag=value`, `--bool`, repeated flags for arrays, `--` ending flags. Then validates with the
 * command's zod schema. Every failure is a {@link UsageError} naming the argument, with the usage line.
 */
export function bindTokens(
  command: AnyCommand<unknown>,
  tokens: readonly Token[],
  options: BindOptions = {},
): Raw {
  const shape = (command.args as z.ZodObject).shape as Record<string, z.ZodType>;
  const flags = new Map<string, string>();
  for (const key of Object.keys(shape)) flags.set(toFlagName(key), key);
  const raw: Raw = {};
  const positionals: string[] = [];
  const usage = usageLine(command);
  let flagsEnded = false;

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (flagsEnded || token.quoted || !token.text.startsWith('--') || token.text === '--') {
      if (!token.quoted && token.text === '--' && !flagsEnded) flagsEnded = true;
      else positionals.push(token.text);
      continue;
    }
    const body = token.text.slice(2);
    const eq = body.indexOf('=');
    const flagName = (eq >= 0 ? body.slice(0, eq) : body).toLowerCase();
    const key = flags.get(flagName);
    if (!key) {
      const visible = [...flags.entries()]
        .filter(([, k]) => !argInfo(shape[k] as z.ZodType).hidden && !(command.positional ?? []).includes(k))
        .map(([flag]) => flag);
      throw UsageError.inWords(
        (say) => ({
          message: say.t('command-unknown-option', flagName, command.name),
          hint: didYouMean(flagName, visible, (flag) => `--${flag}`, say),
        }),
        { usage },
      );
    }
    const info = argInfo(shape[key] as z.ZodType);
    let value: string | boolean;
    if (eq >= 0) {
      value = body.slice(eq + 1);
      // `--description=` (nothing after `=`, e.g. an empty shell variable) is the same mistake as
      // `--description` alone: refused before anything runs. A quoted "" is a value the command's
      // schema judges.
      if (value === '' && info.kind !== 'boolean') {
        throw new UsageError(`Option --${flagName} needs a value.`, { usage });
      }
    } else if (info.kind === 'boolean') {
      value = true;
    } else {
      const next = tokens[i + 1];
      if (!next || (!next.quoted && next.text.startsWith('--') && next.text.length > 2)) {
        throw new UsageError(`Option --${flagName} needs a value.`, { usage });
      }
      value = next.text;
      i++;
    }
    if (info.kind === 'array') {
      const list = (raw[key] as unknown[] | undefined) ?? [];
      list.push(value);
      raw[key] = list;
    } else if (key in raw) {
      throw UsageError.inWords((say) => ({ message: say.t('command-option-twice', flagName) }), { usage });
    } else {
      raw[key] = value;
    }
  }

  assignPositionals(command, shape, positionals, raw, options, usage);
  return validateArgs(command, raw);
}

function assignPositionals(
  command: AnyCommand<unknown>,
  shape: Record<string, z.ZodType>,
  values: string[],
  raw: Raw,
  options: BindOptions,
  usage: string,
): void {
  const names = [...(command.positional ?? [])].filter((name) => !(name in raw));
  const required = names.filter((name) => !argInfo(shape[name] as z.ZodType).optional).length;
  if (
    names[0] === 'tool' &&
    options.boundTool &&
    takesBoundTool(command, names, values, required, options.boundTool)
  ) {
    values.unshift(options.boundTool);
  }
  for (const [index, name] of names.entries()) {
    const info = argInfo(shape[name] as z.ZodType);
    if (info.kind === 'array' && index === names.length - 1) {
      if (values.length > 0) raw[name] = values.splice(0);
      break;
    }
    const value = values.shift();
    if (value !== undefined) raw[name] = value;
  }
  if (values.length > 0) {
    const extra = values.join(' ');
    throw UsageError.inWords(
      (say) => ({ message: say.t('command-too-many-arguments', extra, values.length) }),
      { usage },
    );
  }
}

/**
 * Whether the tool bound to the conversation could fill an argument of this command line (so it is
 * worth reading): not when the command has no `<tool>` first, nor when every positional is given
 * and no flag is used. When unsure (flags, which may take the next word), yes.
 */
export function mayTakeBoundTool(command: AnyCommand<unknown>, tokens: readonly Token[]): boolean {
  const positional = command.positional ?? [];
  if (positional[0] !== 'tool') return false;
  if (tokens.some((token) => !token.quoted && token.text.startsWith('--'))) return true;
  return tokens.length < positional.length;
}

/**
 * Whether the bound tool fills `<tool>`: when a required value would be missing without it, and also
 * when fewer values than positionals are given and the first is not the bound tool's name, so that an
 * optional id (`/build show latest`, `/logs web`) is never taken for a tool name. Another tool is
 * then named with `--tool`. Commands whose later positionals are secrets keep the strict rule: a
 * tool name must never be taken for a secret.
 */
function takesBoundTool(
  command: AnyCommand<unknown>,
  names: readonly string[],
  values: readonly string[],
  required: number,
  boundTool: string,
): boolean {
  if (values.length < required) return true;
  const secrets = new Set<string>(command.secretArgs ?? []);
  if (names.some((name) => secrets.has(name))) return false;
  return values.length < names.length && values[0] !== boundTool;
}

/**
 * Validates an argument object (from text, command options or a stored button) against a command's
 * schema, coercing strings to the declared numbers and booleans first.
 */
export function validateArgs(command: AnyCommand<unknown>, raw: Raw): Raw {
  const schema = command.args as z.ZodObject;
  const shape = schema.shape as Record<string, z.ZodType>;
  const coerced: Raw = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = shape[key];
    if (!field) {
      throw UsageError.inWords((say) => ({ message: say.t('command-unknown-argument', key, command.name) }), {
        usage: usageLine(command),
      });
    }
    coerced[key] = coerce(argInfo(field), value);
  }
  const result = schema.safeParse(coerced);
  if (result.success) return result.data as Raw;
  const issue = result.error.issues[0] as z.core.$ZodIssue;
  const key = String(issue.path[0] ?? '');
  const positional = (command.positional ?? []).includes(key);
  const name = positional ? `<${toPositionalName(key)}>` : `--${toFlagName(key)}`;
  const missing = coerced[key] === undefined;
  const message = missing
    ? `Missing ${name}.`
    : `Invalid ${name}: ${issuePhrase(issue, coerced[key])}${describeGiven(coerced[key])}.`;
  const example = command.examples[0] ?? '';
  const invalid = argInfo(shape[key] as z.ZodType).invalid;
  const fieldKey = invalid && isMessageKey(invalid) ? invalid : undefined;
  const words = argumentWords(name, missing ? undefined : issue, fieldKey, coerced[key], example);
  throw new UsageError(message, { usage: usageLine(command), hint: `Example: ${example}`, words });
}

/**
 * The refusal of an argument in the reader's language: missing (no `issue`), or what the failing
 * check wanted (see {@link issuePhrase}).
 */
function argumentWords(
  name: string,
  issue: z.core.$ZodIssue | undefined,
  fieldKey: MessageKey | undefined,
  value: unknown,
  example: string,
): NonNullable<DeckhandError['words']> {
  return (say) => {
    const hint = say.t('help-example', example);
    if (!issue) return { message: say.t('validation-missing', name), hint };
    const phrase = issuePhrase(issue, value, say, fieldKey);
    const given = typeof value === 'string' ? shortened(value) : undefined;
    const message = given
      ? say.t('validation-invalid-given', name, phrase, given)
      : say.t('validation-invalid', name, phrase);
    return { message, hint };
  };
}

function shortened(value: string): string {
  return value.length > 60 ? `${value.slice(0, 57)}...` : value;
}

function describeGiven(value: unknown): string {
  if (typeof value === 'string') return ` (got \`${shortened(value)}\`)`;
  return '';
}

function coerce(info: ReturnType<typeof argInfo>, value: unknown): unknown {
  if (typeof value !== 'string') {
    if (info.kind === 'array' && Array.isArray(value)) {
      return value.map((v) => coerce({ ...info, kind: info.itemKind ?? 'string' }, v));
    }
    return value;
  }
  if (info.kind === 'number') {
    const trimmed = value.trim();
    return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : value;
  }
  if (info.kind === 'boolean') {
    const lowered = value.toLowerCase();
    if (['true', 'yes', '1', 'on'].includes(lowered)) return true;
    if (['false', 'no', '0', 'off'].includes(lowered)) return false;
    return value;
  }
  if (info.kind === 'array') return [coerce({ ...info, kind: info.itemKind ?? 'string' }, value)];
  return value;
}
