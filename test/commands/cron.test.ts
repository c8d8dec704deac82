import { CronParsingError, parseCron } from '@deckhand/sandbox/toolhost/jobs-cron';
import { describe, expect, it } from 'vitest';
import { cronProblem, pythonInt } from '../../commands/toolhost/cron';
import { translator } from '../../src/i18n/translate';
import { CRON_CASES } from './cron-cases';

const EN = translator('en');

const platformAccepts = (schedule: string) => {
  try {
    parseCron(schedule, 'some-tool', 'some-job');
    return true;
  } catch (error) {
    if (error instanceof CronParsingError) return false;
    throw error;
  }
};

describe('the schedule pre-check speaks the platform dialect (jobs API tjf/core/cron.py)', () => {
  it.each(CRON_CASES)('$schedule: accepted=$accepted ($why)', ({ schedule, accepted }) => {
    expect(cronProblem(schedule, EN) === undefined).toBe(accepted);
  });

  it.each(CRON_CASES)('the sandbox emulator agrees on $schedule', ({ schedule, accepted }) => {
    expect(platformAccepts(schedule)).toBe(accepted);
  });

  it('says what is wrong, naming the field', () => {
    expect(cronProblem('0-30/5 * * * *', EN)).toBe(
      'the minute field `0-30/5` has a step on a range (a-b/n), which the platform does not support: use a list or */n',
    );
    expect(cronProblem('0 0 * * 1-7', EN)).toBe('the day of week field `1-7` must stay within 0-6');
    expect(cronProblem('@midnight', EN)).toContain('@midnight is not a schedule macro the platform knows');
    expect(cronProblem('1 2 3 4', EN)).toContain('this has 4');
  });

  it('reads numbers as Python int() does', () => {
    expect(pythonInt(' 7 ')).toBe(7);
    expect(pythonInt('1_000')).toBe(1000);
    expect(pythonInt('1__0')).toBeUndefined();
    expect(pythonInt('_1')).toBeUndefined();
    expect(pythonInt('')).toBeUndefined();
    expect(pythonInt('-3')).toBe(-3);
  });
});

describe("the sandbox's schedule_actual of a macro is the platform's own", () => {
  it('@daily of some-job of some-tool is 56 6 * * * (J tests/test_cron.py test_cron_parse_at_macro)', () => {
    expect(parseCron('@daily', 'some-tool', 'some-job')).toBe('56 6 * * *');
  });

  it('is stable per job and differs between jobs, each fixed field within its bounds', () => {
    expect(parseCron('@yearly', 'mytool', 'report')).toBe(parseCron('@yearly', 'mytool', 'report'));
    expect(parseCron('@daily', 'mytool', 'a')).not.toBe(parseCron('@daily', 'mytool', 'b'));
    const [minute, hour, day, month, weekday] = parseCron('@yearly', 'mytool', 'report')
      .split(' ')
      .map(Number);
    expect(minute).toBeLessThanOrEqual(59);
    expect(hour).toBeLessThanOrEqual(23);
    expect(day).toBeGreaterThanOrEqual(1);
    expect(month).toBeGreaterThanOrEqual(1);
    expect(month).toBeLessThanOrEqual(12);
    expect(weekday).toBeNaN();
  });
});
