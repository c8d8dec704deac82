/**
 * Cron schedules as the jobs API accepts them (J `tjf/core/cron.py`): five space-separated fields,
 * with lists, ranges and steps (but no step on a range), day names in the last field, and the
 * macros `@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly`.
 *
 * A macro is not run at midnight: the real API replaces each fixed field of the macro with a value
 * picked by Python's `random` seeded with tool and job name, so that jobs spread out; the result is
 * the job's `schedule_actual` (e.g. `@daily` of job some-job of some-tool → `56 6 * * *`, J
 * `tests/test_cron.py`). The emulator runs the same generator (python-random.ts), so the values are
 * the platform's own.
 */
import { PythonRandom } from './python-random';

interface CronField {
  min: number;
  max: number;
  mapping?: Record<string, string>;
}

const AT_MAPPING: Record<string, string> = {
  '@hourly': '0 * * * *',
  '@daily': '0 0 * * *',
  '@weekly': '0 0 * * 0',
  '@monthly': '0 0 1 * *',
  '@yearly': '0 0 1 1 *',
};

const FIELDS: CronField[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12 },
  {
    min: 0,
    max: 6,
    mapping: { '7': '0', sun: '0', mon: '1', tue: '2', wed: '3', thu: '4', fri: '5', sat: '6' },
  },
];

/** A schedule the API rejected; `message` is the cause the API appends in parentheses. */
export class CronParsingError extends Error {
  override readonly name = 'CronParsingError';
}

/** Whether Python's `int()` reads `s` (whitespace around, a sign, `_` between ASCII digits). */
const strip = (s: string) => s.replace(/^[\s\u001c-\u001f\u0085]+|[\s\u001c-\u001f\u0085]+$/gu, '');
const isInt = (s: string) => /^[+-]?\d+(_\d+)*$/.test(strip(s));
/** Python's `int()` of a string {@link isInt} accepts. */
const toInt = (s: string) => Number(strip(s).replace(/_/g, ''));

function assertValue(value: string, field: CronField): void {
  const fail = (why: string): never => {
    throw new CronParsingError(`Unable to parse cron expression "${value}": ${why}`);
  };
  for (const raw of value.split(',')) {
    let entry = raw;
    let step: string | undefined;
    if (entry.includes('-')) {
      if (entry.includes('/')) fail('Step syntax is not supported with ranges');
    } else if (entry.includes('/')) {
      // Python's split("/", 1): everything after the first slash is the step.
      const slash = entry.indexOf('/');
      step = entry.slice(slash + 1);
      entry = entry.slice(0, slash);
    }
    if (entry.includes('-')) {
      const dash = entry.indexOf('-');
      const start = entry.slice(0, dash);
      const end = entry.slice(dash + 1);
      if (!isInt(start)) fail(`Unable to parse '${start}' as an integer`);
      if (!isInt(end)) fail(`Unable to parse '${end}' as an integer`);
      const s = toInt(start);
      const e = toInt(end);
      if (s > e) fail(`End value ${e} must be smaller than start value ${s}`);
      if (s < field.min) fail(`Start value ${s} must be at least ${field.min}`);
      if (e > field.max) fail(`End value ${e} must be at most ${field.max}`);
    } else if (entry !== '*') {
      const mapped = field.mapping?.[entry] ?? entry;
      if (!isInt(mapped)) fail(`Unable to parse '${mapped}' as an integer`);
      const n = toInt(mapped);
      if (n < field.min || n > field.max)
        fail(`Invalid value '${mapped}', expected ${field.min}-${field.max}`);
    }
    // `if step:` there: an empty step (`*/`) is not checked.
    if (step) {
      if (!isInt(step)) fail(`Unable to parse '${step}' (from '${entry}') as an integer`);
      const n = toInt(step);
      if (n === 0 || n < field.min || n > field.max) fail(`Invalid step value in '${entry}'`);
    }
  }
}

/**
 * Parses a schedule; returns the actual five-field expression (`schedule_actual`). Throws
 * {@link CronParsingError} like the real parser.
 */
export function parseCron(value: string, tool: string, job: string): string {
  if (value.startsWith('@')) {
    const mapped = AT_MAPPING[value];
    if (!mapped) {
      throw new CronParsingError(
        `Unable to parse cron expression "${value}": Invalid at-macro '${value}', supported macros are: ${Object.keys(AT_MAPPING).join(', ')}`,
      );
    }
    // random.seed(f"{tool_name} {job_name}") then randint(min, max) for each fixed field, in order.
    const random = new PythonRandom(`${tool} ${job}`);
    return mapped
      .split(' ')
      .map((part, i) => {
        const field = FIELDS[i] as CronField;
        return part === '*' ? part : String(random.randint(field.min, field.max));
      })
      .join(' ');
  }
  const parts = value
    .toLowerCase()
    .split(' ')
    .filter((p) => p !== '');
  if (parts.length !== 5) {
    throw new CronParsingError(
      `Unable to parse cron expression "${value}": Expected to find 5 space-separated values, found ${parts.length}`,
    );
  }
  parts.forEach((part, i) => {
    assertValue(part, FIELDS[i] as CronField);
  });
  return parts.join(' ');
}
