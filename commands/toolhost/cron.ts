/**
 * The schedule check made before a job is sent: the platform's own cron dialect, ported from the
 * jobs API's parser (J = toolforge-jobs-api `tjf/core/cron.py` @ f1c6958, `CronExpression.parse`),
 * so Deckhand accepts exactly what the platform accepts and refuses the rest with a reason:
 *
 * - a macro is the whole value, case and spaces included: `@hourly`, `@daily`, `@weekly`, `@monthly`,
 *   `@yearly` (no `@midnight`, `@annually`, `@reboot`);
 * - otherwise the value is lower-cased and split on spaces (only spaces) into exactly five fields;
 * - each field is a comma list of `*`, `N`, `a-b`, `*∕n` or `N∕n`; a step on a range (`0-30/5`) is
 *   refused; names (`mon`, `sun`) and `7` (Sunday) are read in the day-of-week field, but only as a
 *   single value, never in a range (so `1-7` and `mon-fri` are refused);
 * - bounds: minute 0-59, hour 0-23, day 1-31, month 1-12 (numbers only), day of week 0-6; a step
 *   must be within the field's bounds and not 0; an empty step (`*∕`) is not checked, as there.
 *
 * Numbers are read as Python's `int()` reads them: surrounding whitespace, a sign and `_` between
 * digits are allowed (ASCII digits only here; Python also takes other scripts' digits).
 */

import type { MessageKey, Translator } from '../../src/i18n/translate';

interface Field {
  /** The field's name in the catalog (`the minute field …`). */
  name: MessageKey;
  min: number;
  max: number;
  names?: Record<string, string>;
}

/** The macros the platform knows, and what they stand for (before it picks a random time). */
export const SCHEDULE_MACROS: Readonly<Record<string, string>> = {
  '@hourly': '0 * * * *',
  '@daily': '0 0 * * *',
  '@weekly': '0 0 * * 0',
  '@monthly': '0 0 1 * *',
  '@yearly': '0 0 1 1 *',
};

const FIELDS: readonly Field[] = [
  { name: 'cron-field-minute', min: 0, max: 59 },
  { name: 'cron-field-hour', min: 0, max: 23 },
  { name: 'cron-field-day-of-month', min: 1, max: 31 },
  { name: 'cron-field-month', min: 1, max: 12 },
  {
    name: 'cron-field-day-of-week',
    min: 0,
    max: 6,
    names: { '7': '0', sun: '0', mon: '1', tue: '2', wed: '3', thu: '4', fri: '5', sat: '6' },
  },
];

/** Python's `int(text)` for ASCII digits; undefined where it raises ValueError. */
export function pythonInt(text: string): number | undefined {
  const trimmed = text.replace(/^[\s\u001c-\u001f\u0085]+|[\s\u001c-\u001f\u0085]+$/gu, '');
  if (!/^[+-]?\d+(_\d+)*$/.test(trimmed)) return undefined;
  return Number(trimmed.replace(/_/g, ''));
}

/** What is wrong with a field, in the reader's words: `say`, the field's name and its text. */
type FieldWords = (say: Translator, field: string, part: string) => string;

class Problem extends Error {
  constructor(readonly words: FieldWords) {
    super();
  }
}

/** The part of a field a number was read from (`the start` of a range, `the step`). */
type NumberPart = 'cron-part-start' | 'cron-part-end' | 'cron-part-value' | 'cron-part-step';

function checkField(value: string, field: Field): void {
  const intOf = (text: string, what: NumberPart): number => {
    const n = pythonInt(text);
    if (n === undefined)
      throw new Problem((say, name, part) => say.t('cron-not-a-number', name, part, say.t(what), text));
    return n;
  };
  const outside = () =>
    new Problem((say, name, part) => say.t('cron-out-of-bounds', name, part, field.min, field.max));
  for (const item of value.split(',')) {
    let entry = item;
    let step: string | undefined;
    if (entry.includes('-')) {
      if (entry.includes('/'))
        throw new Problem((say, name, part) => say.t('cron-step-on-range', name, part));
    } else if (entry.includes('/')) {
      const slash = entry.indexOf('/');
      step = entry.slice(slash + 1);
      entry = entry.slice(0, slash);
    }
    if (entry.includes('-')) {
      const dash = entry.indexOf('-');
      const start = intOf(entry.slice(0, dash), 'cron-part-start');
      const end = intOf(entry.slice(dash + 1), 'cron-part-end');
      if (start > end)
        throw new Problem((say, name, part) => say.t('cron-range-backwards', name, part, start, end));
      if (start < field.min) throw outside();
      if (end > field.max) throw outside();
    } else if (entry !== '*') {
      const mapped = field.names?.[entry] ?? entry;
      const n = intOf(mapped, 'cron-part-value');
      if (n < field.min || n > field.max) throw outside();
    }
    if (step) {
      const n = intOf(step, 'cron-part-step');
      if (n === 0 || n < field.min || n > field.max) {
        throw new Problem((say, name, part) =>
          say.t('cron-bad-step', name, part, n, Math.max(1, field.min), field.max),
        );
      }
    }
  }
}

/**
 * Checks a job schedule as the platform does. Returns a sentence saying what is wrong (in `say`'s
 * language), or undefined when the platform accepts it.
 */
export function cronProblem(schedule: string, say: Translator): string | undefined {
  if (schedule.startsWith('@')) {
    return SCHEDULE_MACROS[schedule] !== undefined
      ? undefined
      : say.t('cron-unknown-macro', schedule, Object.keys(SCHEDULE_MACROS).join(', '));
  }
  const parts = schedule
    .toLowerCase()
    .split(' ')
    .filter((part) => part !== '');
  if (parts.length !== 5) {
    return say.t('cron-field-count', parts.length);
  }
  for (const [index, part] of parts.entries()) {
    const field = FIELDS[index] as Field;
    try {
      checkField(part, field);
    } catch (error) {
      if (error instanceof Problem) return error.words(say, say.t(field.name), part);
      throw error;
    }
  }
  return undefined;
}
