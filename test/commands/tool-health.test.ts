/**
 * The status chip of `/me`, by the rules of `/tool status`: the worst of the latest build, the
 * latest deployment and the jobs decides, with what made it so; a tool with nothing yet is ok; one
 * that cannot be read at all is unknown, in the service's words.
 */
import { describe, expect, it } from 'vitest';
import { toolChip } from '../../commands/toolhost/tool-health';
import { NotFoundError, UpstreamError } from '../../src/core/errors';
import type { ToolhostClient } from '../../src/services/toolhost';

type Answer = unknown | Error;

function client(build: Answer, deployment: Answer, jobs: Answer): () => ToolhostClient {
  const read = (answer: Answer) => async () => {
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return () =>
    ({
      builds: { latest: read(build) },
      components: { latestDeployment: read(deployment) },
      jobs: { list: read(jobs) },
    }) as unknown as ToolhostClient;
}

const ok = { status: 'BUILD_SUCCESS', build_id: 'b1' };
const done = { status: 'successful', deploy_id: 'd1' };
const running = (name: string, type = 'continuous') => ({
  name,
  job_type: type,
  status: { short: 'running' },
});
const failed = (name: string, type = 'continuous') => ({ name, job_type: type, status: { short: 'failed' } });

describe('the status chip', () => {
  it('is ok when everything is', async () => {
    expect(await toolChip(client(ok, done, [running('web')]))).toEqual({ status: 'success', word: 'ok' });
  });

  it('is failing for a failed deployment or a failing continuous job, naming it', async () => {
    expect(await toolChip(client(ok, { status: 'failed', deploy_id: 'd2' }, []))).toEqual({
      status: 'danger',
      word: 'failing',
      detail: 'deployment failed',
    });
    expect(await toolChip(client(ok, done, [running('web'), failed('bot')]))).toEqual({
      status: 'danger',
      word: 'failing',
      detail: 'job bot failing',
    });
  });

  it('is a warning for a failed build or a failed one-off run; deploying while a deployment runs', async () => {
    const chip = await toolChip(client({ status: 'BUILD_FAILURE' }, done, [failed('once', 'one-off')]));
    expect(chip.word).toBe('warning');
    expect(await toolChip(client(ok, { status: 'running', deploy_id: 'd3' }, []))).toMatchObject({
      word: 'deploying',
    });
  });

  it('is ok for a tool with nothing yet, and unknown when nothing can be read', async () => {
    const none = new NotFoundError('none');
    expect((await toolChip(client(none, none, []))).word).toBe('ok');
    const down = new UpstreamError('toolhost', 503, 'The jobs API is down.');
    expect(await toolChip(client(down, down, down))).toEqual({
      status: 'info',
      word: 'unknown',
      detail: 'The jobs API is down.',
    });
    const gone = () => {
      throw new NotFoundError('Tool nosuch does not exist.');
    };
    expect(await toolChip(gone)).toMatchObject({ word: 'unknown', detail: 'Tool nosuch does not exist.' });
  });
});
