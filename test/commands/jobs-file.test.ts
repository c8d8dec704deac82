import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { jobsFileText, jobsFromFile, jobToEntry } from '../../commands/toolhost/jobs-file';
import { loadPlan } from '../../commands/toolhost/jobs-load';
import { UsageError } from '../../src/core/errors';
import { translator } from '../../src/i18n/translate';
import type { Job } from '../../src/services/toolhost';

const job = (fields: Record<string, unknown>): Job => ({ job_type: 'one-off', ...fields }) as unknown as Job;

const current: Job[] = [
  job({
    name: 'web',
    cmd: 'web',
    imagename: 'tool-x/web:latest',
    job_type: 'continuous',
    continuous: true,
    port: 8000,
    memory: '0.5Gi',
  }),
  job({
    name: 'report',
    cmd: 'r.py',
    imagename: 'python3.11',
    job_type: 'scheduled',
    schedule: '@daily',
    filelog: false,
  }),
  job({ name: 'once', cmd: 'm.py', imagename: 'python3.11', job_type: 'one-off' }),
];

describe('the jobs file (toolforge jobs load format)', () => {
  it('round-trips: a dump reads back as the same definitions', () => {
    const text = jobsFileText('x', current, translator('en'));
    expect(text).toContain('# Jobs of x');
    const entries = parse(text) as Record<string, unknown>[];
    expect(entries[0]).toEqual({
      name: 'web',
      command: 'web',
      image: 'tool-x/web:latest',
      continuous: true,
      port: 8000,
      mem: '0.5Gi',
    });
    expect(entries[1]).toMatchObject({ schedule: '@daily', filelog: false });
    expect(loadPlan(jobsFromFile(entries, 'f'), current)).toEqual({
      create: [],
      update: [],
      unchanged: ['web', 'report', 'once'],
      remove: [],
    });
  });

  it('reads the CLI option names, no-filelog and health checks included', () => {
    const [a] = jobsFromFile(
      [
        {
          name: 'a',
          command: 'c',
          image: 'python3.11',
          continuous: true,
          replicas: 2,
          'health-check-http': '/h',
          port: 80,
          'no-filelog': true,
          mem: '1Gi',
        },
      ],
      'f',
    );
    expect(a).toEqual({
      name: 'a',
      cmd: 'c',
      imagename: 'python3.11',
      job_type: 'continuous',
      replicas: 2,
      port: 80,
      memory: '1Gi',
      filelog: false,
      health_check: { type: 'http', path: '/h' },
    });
    expect(jobToEntry(a as never)).toMatchObject({
      'health-check-http': '/h',
      filelog: false,
      continuous: true,
    });
  });

  it.each([
    ['not a list', { name: 'a' }, 'should be a YAML list of jobs'],
    [
      'an unknown option',
      [{ name: 'a', command: 'c', image: 'i', restart: 1 }],
      "Unknown option 'restart' in job a.",
    ],
    ['no image', [{ name: 'a', command: 'c' }], 'job a has no image (it is required).'],
    [
      'schedule and continuous',
      [{ name: 'a', command: 'c', image: 'i', schedule: '@daily', continuous: true }],
      'choose schedule or continuous',
    ],
    [
      'a port on a one-off job',
      [{ name: 'a', command: 'c', image: 'i', port: 80 }],
      'port only applies to continuous jobs',
    ],
    [
      'a schedule the platform refuses',
      [{ name: 'a', command: 'c', image: 'i', schedule: '0 0 * * 1-7' }],
      'invalid schedule',
    ],
    [
      'a name twice',
      [
        { name: 'a', command: 'c', image: 'i' },
        { name: 'a', command: 'd', image: 'i' },
      ],
      'Job a is defined twice in f.',
    ],
    ['a bad name', [{ name: 'A_B', command: 'c', image: 'i' }], 'job A_B: name'],
  ])('refuses %s with a clear message', (_what, value, message) => {
    let error: unknown;
    try {
      jobsFromFile(value, 'f');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(message);
  });
});

describe('the load plan', () => {
  it('creates, updates (naming the fields), deletes what is not listed, keeps the rest', () => {
    const wanted = jobsFromFile(
      [
        {
          name: 'web',
          command: 'web --fast',
          image: 'tool-x/web:latest',
          continuous: true,
          port: 8000,
          mem: '512Mi',
        },
        { name: 'report', command: 'r.py', image: 'python3.11', schedule: '@daily', filelog: false },
        { name: 'new', command: 'n', image: 'python3.11', schedule: '0 1 * * *' },
      ],
      'f',
    );
    const plan = loadPlan(wanted, current);
    expect(plan.create.map((j) => j.name)).toEqual(['new']);
    // 512Mi is the 0.5Gi the platform stored: only the command changed.
    expect(plan.update).toEqual([{ job: wanted[0], fields: ['cmd'] }]);
    expect(plan.remove).toEqual(['once']);
    expect(plan.unchanged).toEqual(['report']);
  });

  it('with --job, looks at that job only', () => {
    const wanted = jobsFromFile(
      [{ name: 'report', command: 'r2.py', image: 'python3.11', schedule: '@daily' }],
      'f',
    );
    const plan = loadPlan(wanted, current, 'report');
    expect(plan).toEqual({
      create: [],
      update: [{ job: wanted[0], fields: ['cmd', 'filelog'] }],
      unchanged: [],
      remove: [],
    });
  });
});
