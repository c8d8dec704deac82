import { describe, expect, it } from 'vitest';
import { jobOutcome, jobRunEnd } from '../../src/services/toolhost';

describe('what a job state means', () => {
  it('takes a running or succeeded job for a success and a failed one for a failure', () => {
    expect(jobOutcome({ status: { short: 'running', messages: [] } })).toBe('success');
    expect(jobOutcome({ status: { short: 'succeeded', messages: [] } })).toBe('success');
    expect(jobOutcome({ status: { short: 'failed', messages: ['exitcode 1'] } })).toBe('failure');
    expect(jobOutcome({ status: { short: 'pending', messages: [] } })).toBeUndefined();
    expect(jobOutcome({})).toBeUndefined();
  });

  it('ends a run on the short state, or on the older status_short where only that is given', () => {
    expect(jobRunEnd({ status: { short: 'failed', messages: [] } })).toBe('failed');
    expect(jobRunEnd({ status: { short: 'succeeded', messages: [] } })).toBe('succeeded');
    expect(jobRunEnd({ status_short: 'Completed' })).toBe('succeeded');
    expect(jobRunEnd({ status_short: 'Failed' })).toBe('failed');
    expect(
      jobRunEnd({ status: { short: 'running', messages: [] }, status_short: 'Running' }),
    ).toBeUndefined();
  });
});
