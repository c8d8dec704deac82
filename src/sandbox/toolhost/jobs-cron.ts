/**
 * Cron schedules as the jobs API accepts them (J `tjf/core/cron.py`): five space-separated fields,
 * with lists, ranges and steps (but no step on a range), day names in the last field, and the
 * macros `@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly`.
 *
 * A macro is not run at midnight: the real API replaces each fixed field of the macro with a value
 * picked pseudo-randomly from a seed of tool and job name, so that jobs spread out; the result is
 * the job's `schedule_actual` (e.g. `@daily` → `17 4 * * *`). The emulator derives it from a hash of
 * the same seed, so it is stable per job too (the values differ from the real ones).
 */
import { createHash } from 'node:crypto';

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

const isInt = (s: string) => /^[+-]?\d+$/.test(s.trim());

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
      [entry, step] = entry.split('/', 2) as [string, string];
    }
    if (entry.includes('-')) {
      const [start = '', end = ''] = entry.split('-', 2);
      if (!isInt(start)) fail(`Unable to parse '${start}' as an integer`);
      if (!isInt(end)) fail(`Unable to parse '${end}' as an integer`);
      const s = Number(start);
      const e = Number(end);
      if (s > e) fail(`End value ${e} must be smaller than start value ${s}`);
      if (s < field.min) fail(`Start value ${s} must be at least ${field.min}`);
      if (e > field.max) fail(`End value ${e} must be at most ${field.max}`);
    } else if (entry !== '*') {
      const mapped = field.mapping?.[entry] ?? entry;
      if (!isInt(mapped)) fail(`Unable to parse '${mapped}' as an integer`);
      const n = Number(mapped);
      if (n < field.min || n > field.max)
        fail(`Invalid value '${mapped}', expected ${field.min}-${field.max}`);
    }
    if (step !== undefined) {
      if (!isInt(step)) fail(`Unable to parse '${step}' (from '${entry}') as an integer`);
      const n = Number(step);
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
    const digest = createHash('sha256').update(`${tool} ${job}`).digest();
    return mapped
      .split(' ')
      .map((part, i) => {
        const field = FIELDS[i] as CronField;
        if (part === '*') return part;
        return String(field.min + (digest.readUInt16BE(i * 2) % (field.max - field.min + 1)));
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
