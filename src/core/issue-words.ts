/**
 * A validator's complaint about one argument, in Deckhand's words: zod's default messages ("Too
 * small: expected string to have >=1 characters") become what was wrong and what is expected ("can't
 * be empty"). A message the schema wrote itself (`must be a tool name`) is kept as it is.
 */
import { z } from 'zod';
import { type MessageKey, type Translator, translator } from '../i18n/translate';
import { closestWords } from './did-you-mean';

type Issue = z.core.$ZodIssue;

/** True when `issue.message` is zod's own wording rather than one the schema gave. */
function isDefaultMessage(issue: Issue, input: unknown): boolean {
  const locale = z.config().localeError;
  if (!locale) return false;
  const made = locale({ ...issue, input } as never);
  const text = typeof made === 'string' ? made : made?.message;
  return text === issue.message;
}

function lowerBound(issue: Extract<Issue, { code: 'too_small' }>, say: Translator): string {
  const minimum = Number(issue.minimum);
  if (issue.origin === 'string')
    return minimum === 1 ? say.t('issue-empty') : say.t('issue-min-characters', minimum, say.number(minimum));
  if (issue.origin === 'array' || issue.origin === 'set')
    return say.t('issue-min-values', minimum, say.number(minimum));
  return issue.inclusive === false
    ? say.t('issue-more-than', String(minimum))
    : say.t('issue-at-least', String(minimum));
}

function upperBound(issue: Extract<Issue, { code: 'too_big' }>, say: Translator): string {
  const maximum = Number(issue.maximum);
  if (issue.origin === 'string') return say.t('issue-max-characters', maximum, say.number(maximum));
  if (issue.origin === 'array' || issue.origin === 'set')
    return say.t('issue-max-values', maximum, say.number(maximum));
  return issue.inclusive === false
    ? say.t('issue-less-than', String(maximum))
    : say.t('issue-at-most', String(maximum));
}

const EXPECTED: Record<string, MessageKey> = {
  int: 'issue-expected-int',
  number: 'issue-expected-number',
  boolean: 'issue-expected-boolean',
  string: 'issue-expected-string',
  array: 'issue-expected-array',
  object: 'issue-expected-object',
  date: 'issue-expected-date',
};

const FORMATS: Record<string, MessageKey> = {
  url: 'issue-format-url',
  email: 'issue-format-email',
  uuid: 'issue-format-uuid',
  datetime: 'issue-format-datetime',
  date: 'issue-format-date',
  time: 'issue-format-time',
  regex: 'issue-format-other',
  starts_with: 'issue-format-start',
};

/** Checks whose complaint is said from the issue itself (a bound, a kind, a choice), whatever the field. */
const SAID_BY_ISSUE: ReadonlySet<string> = new Set([
  'too_small',
  'too_big',
  'invalid_type',
  'invalid_value',
  'not_multiple_of',
]);

/**
 * What was wrong with the value of one argument, as a phrase to follow the argument's name
 * (`must be at least 1`, `must be one of none, all — did you mean none?`). A field's own catalog
 * refusal (`fieldKey`, its `.meta({ invalid })`) is said where the failing check carries it, and
 * for a format or custom check; other bounds, kinds and choices are said from the issue, so a
 * too-long title is never refused as a malformed one.
 */
export function issuePhrase(
  issue: Issue,
  input: unknown,
  say: Translator = translator('en'),
  fieldKey?: MessageKey,
): string {
  if (fieldKey && issue.message === translator('en').t(fieldKey)) return say.t(fieldKey);
  const own = !isDefaultMessage(issue, input);
  if (SAID_BY_ISSUE.has(issue.code)) return own && !fieldKey ? issue.message : phraseOf(issue, input, say);
  if (fieldKey) return say.t(fieldKey);
  return own ? issue.message : phraseOf(issue, input, say);
}

/** The issue said from its code and data (zod's own wording replaced). */
function phraseOf(issue: Issue, input: unknown, say: Translator): string {
  switch (issue.code) {
    case 'too_small':
      return lowerBound(issue, say);
    case 'too_big':
      return upperBound(issue, say);
    case 'invalid_type':
      return say.t(EXPECTED[issue.expected] ?? 'issue-wrong-kind');
    case 'invalid_value': {
      const choices = issue.values.map(String);
      const close = typeof input === 'string' ? closestWords(input, choices) : [];
      const listed = choices.join(', ');
      if (close.length === 0) return say.t('issue-one-of', listed);
      const guess = new Intl.ListFormat(say.language, { type: 'disjunction' }).format(close);
      return say.t('issue-one-of-guess', listed, guess);
    }
    case 'invalid_format':
      return say.t(FORMATS[issue.format] ?? 'issue-format-other');
    case 'not_multiple_of':
      return say.t('issue-multiple-of', String(issue.divisor));
    default:
      return say.t('issue-not-valid');
  }
}
