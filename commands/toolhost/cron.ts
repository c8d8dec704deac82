const MACROS = new Set(['@hourly', '@daily', '@midnight', '@weekly', '@monthly', '@yearly', '@annually']);
const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
] as const;

/**
 * Checks a job schedule: five numeric cron fields (`*`, `a`, `a-b`, `*\/n`, `a-b/n`, lists) or a macro
 * such as `@daily`. Returns a sentence saying what is wrong, or undefined when it is valid.
 */
export function cronProblem(schedule: string): string | undefined {
  const text = schedule.trim();
  if (text.startsWith('@')) {
    return MACROS.has(text)
      ? undefined
      : `${text} is not a schedule macro; use one of ${[...MACROS].join(', ')}`;
  }
  const parts = text.split(/\s+/);
  if (parts.length !== 5)
    return `a schedule has 5 fields (minute hour day-of-month month day-of-week), this has ${parts.length}`;
  for (const [index, part] of parts.entries()) {
    const field = FIELDS[index] as (typeof FIELDS)[number];
    for (const item of part.split(',')) {
      const problem = itemProblem(item, field.min, field.max);
      if (problem) return `the ${field.name} field \`${part}\` ${problem}`;
    }
  }
  return undefined;
}

function itemProblem(item: string, min: number, max: number): string | undefined {
  const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
  if (!match) return `is not valid (use numbers, *, ranges a-b, steps */n and lists)`;
  const [, , from, to, step] = match;
  for (const value of [from, to]) {
    if (value !== undefined && (Number(value) < min || Number(value) > max))
      return `must stay within ${min}-${max}`;
  }
  if (from !== undefined && to !== undefined && Number(from) > Number(to))
    return 'has a range that runs backwards';
  if (step !== undefined && Number(step) === 0) return 'has a step of 0';
  return undefined;
}
