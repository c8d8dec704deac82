import { describe, expect, it } from 'vitest';
import { runShellScript } from '../support/cli';

/** One JSON log line as pino wrote it. */
type LogLine = Record<string, unknown> & { msg?: string; invocation?: string };

/**
 * The kinds of line only a command's work writes: its dispatch, its upstream requests, the runs of
 * the queue jobs it enqueued, the cards posted or edited for it, and chat API calls.
 */
const CAUSED_BY_A_COMMAND = new Set([
  'command',
  'upstream request',
  'queue job run',
  'queued job failed',
  'card posted',
  'card edited',
  'chat api call',
]);

/** The lines of a command's work that carry no invocation id. */
function untagged(lines: readonly LogLine[]): LogLine[] {
  return lines.filter((line) => CAUSED_BY_A_COMMAND.has(line.msg ?? '') && !line.invocation);
}

function parse(log: string): LogLine[] {
  return log
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as LogLine);
}

describe('the invocation id of a command', () => {
  it('tags every log line its work causes — dispatch, upstream calls, its watch job in the worker, card edits', async () => {
    const run = await runShellScript('/deploy mytool\n/build list mytool\n', {
      wait: 60,
      env: { LOG_LEVEL: 'debug' },
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const lines = parse(run.log);
    const dispatched = lines.filter((line) => line.msg === 'command');
    expect(dispatched.map((line) => line.command)).toEqual(['deploy', 'build list']);
    const [deployId, listId] = dispatched.map((line) => line.invocation);
    expect(deployId).toMatch(/^[0-9A-Z]{8}$/);
    expect(listId).toMatch(/^[0-9A-Z]{8}$/);
    expect(listId).not.toBe(deployId);

    // Every line of the kinds only a command's work writes carries one of the two ids.
    expect(untagged(lines)).toEqual([]);
    for (const line of lines.filter((l) => CAUSED_BY_A_COMMAND.has(l.msg ?? ''))) {
      expect([deployId, listId]).toContain(line.invocation);
    }

    // The deploy's id is on lines from each layer: dispatch, upstream, its queued watch job, card edits.
    const deploy = lines.filter((line) => line.invocation === deployId);
    const kinds = new Set(deploy.map((line) => line.msg));
    expect([...kinds]).toEqual(
      expect.arrayContaining(['command', 'upstream request', 'queue job run', 'card edited']),
    );
    expect(deploy.some((line) => line.msg === 'queue job run' && line.queue === 'watch')).toBe(true);
    expect(deploy.filter((line) => line.msg === 'card edited').length).toBeGreaterThan(0);
    // The listing ran no queue job and edited no card: its id is not on the deploy's work.
    const list = lines.filter((line) => line.invocation === listId);
    expect(list.some((line) => line.msg === 'upstream request')).toBe(true);
    expect(list.some((line) => line.msg === 'queue job run' || line.msg === 'card edited')).toBe(false);

    // Control: the check sees a line of a command's work that lost its id.
    const edited = deploy.find((line) => line.msg === 'card edited') as LogLine;
    const { invocation: _dropped, ...withoutId } = edited;
    expect(untagged([...lines, withoutId])).toEqual([withoutId]);
  }, 120_000);
});
