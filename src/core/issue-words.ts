/**
 * A validator's complaint about one argument, in Deckhand's words: zod's default messages ("Too
 * small: expected string to have >=1 characters") become what was wrong and what is expected ("can't
 * be empty"). A message the schema wrote itself (`must be a tool name`) is kept as it is.
 */
import { z } from 'zod';
import { didYouMean } from './did-you-mean';
import { plural } from './plural';

type Issue = z.core.$ZodIssue;

/** True when `issue.message` is zod's own wording rather than one the schema gave. */
function isDefaultMessage(issue: Issue, input: unknown): boolean {
  const locale = z.config().localeError;
  if (!locale) return false;
  const made = locale({ ...issue, input } as never);
  const text = typeof made === 'string' ? made : made?.message;
  return text === issue.message;
}

function sizeWords(origin: string, count: number): string {
  if (origin === 'string') return plural(count, 'character');
  if (origin === 'array' || origin === 'set') return plural(count, 'value');
  return String(count);
}

function lowerBound(issue: Extract<Issue, { code: 'too_small' }>): string {
  const minimum = Number(issue.minimum);
  if (issue.origin === 'string')
    return minimum === 1 ? "can't be empty" : `needs at least ${sizeWords('string', minimum)}`;
  if (issue.origin === 'array' || issue.origin === 'set')
    return `needs at least ${sizeWords('array', minimum)}`;
  return issue.inclusive === false ? `must be more than ${minimum}` : `must be at least ${minimum}`;
}

function upperBound(issue: Extract<Issue, { code: 'too_big' }>): string {
  const maximum = Number(issue.maximum);
  if (issue.origin === 'string') return `can be at most ${sizeWords('string', maximum)} long`;
  if (issue.origin === 'array' || issue.origin === 'set')
    return `takes at most ${sizeWords('array', maximum)}`;
  return issue.inclusive === false ? `must be less than ${maximum}` : `must be at most ${maximum}`;
}

const EXPECTED: Record<string, string> = {
  int: 'must be a whole number, e.g. 5',
  number: 'must be a number, e.g. 5',
  boolean: 'must be yes or no',
  string: 'must be text',
  array: 'must be a list',
  object: 'must be a set of named values',
  date: 'must be a date',
};

const FORMATS: Record<string, string> = {
  url: 'must be a web address such as https://example.org',
  email: 'must be an e-mail address such as someone@example.org',
  uuid: 'must be an id like 123e4567-e89b-12d3-a456-426614174000',
  datetime: 'must be a date and time such as 2026-12-01T18:00:00Z',
  date: 'must be a date such as 2026-12-01',
  time: 'must be a time such as 18:00',
  regex: 'is not in the expected form',
  starts_with: 'does not start the right way',
};

/**
 * What was wrong with the value of one argument, as a phrase to follow the argument's name
 * (`must be at least 1`, `must be one of none, all — did you mean none?`).
 */
export function issuePhrase(issue: Issue, input: unknown): string {
  if (!isDefaultMessage(issue, input)) return issue.message;
  switch (issue.code) {
    case 'too_small':
      return lowerBound(issue);
    case 'too_big':
      return upperBound(issue);
    case 'invalid_type':
      return EXPECTED[issue.expected] ?? 'is not the right kind of value';
    case 'invalid_value': {
      const choices = issue.values.map(String);
      const guess = typeof input === 'string' ? didYouMean(input, choices) : undefined;
      return `must be one of ${choices.join(', ')}${guess ? ` (${guess.toLowerCase().replace(/\?$/, '')}?)` : ''}`;
    }
    case 'invalid_format':
      return FORMATS[issue.format] ?? 'is not in the expected form';
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return 'is not valid';
  }
}
