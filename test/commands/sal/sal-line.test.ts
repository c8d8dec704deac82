/**
 * The SAL line of a change, read back with stashbot's rules (test/support/stashbot-sal.ts): the
 * project and message stashbot would log, task ids it would link, what its wiki copy would escape.
 */
import { describe, expect, it } from 'vitest';
import { salLine } from '../../../commands/toolhost/sal/line';
import type { ChangeRecord } from '../../../src/core/change-record';
import { loggedBySal, relayedBytes, wikiSafe } from '../../support/stashbot-sal';

const CHANNEL = '#wikimedia-cloud-feed';
const LINK = 'https://deckhand.example.org/changes/abcdefghijklmnopqrstuv';
const projects = new Set(['tools.mytool', 'tools.other']);

const record = (over: Partial<ChangeRecord> = {}): ChangeRecord => ({
  id: 'abcdefghijklmnopqrstuv',
  at: 1,
  platform: 'discord',
  user: 'discord:G1:U1',
  name: 'ada',
  conversationId: 'discord:G1:C1',
  command: 'deploy',
  tool: 'mytool',
  args: { tool: 'mytool', forceBuild: false, forceRun: true, description: 'Fix login (T123, see T4567)' },
  outcome: 'ok',
  ...over,
});

/** What stashbot logs of `line` (fails the test when it would refuse it). */
function logged(line: string | undefined) {
  const out = loggedBySal(line ?? '', [...projects], CHANNEL);
  expect(
    relayedBytes({
      channel: CHANNEL,
      nick: 'deckhandbotnick1',
      userHost: `${'u'.repeat(10)}@${'h'.repeat(63)}`,
      text: line ?? '',
    }),
  ).toBeLessThanOrEqual(512);
  return out;
}

describe('the SAL line of a change', () => {
  it('is `!log tools.<tool> <who> <what> (<link>)`, with the deploy description and its task ids', () => {
    const out = logged(salLine(record(), CHANNEL, LINK));
    expect(out.project).toBe('tools.mytool');
    expect(out.message).toBe(`ada (discord) deployed --force-run: Fix login (T123, see T4567) (${LINK})`);
    expect(out.tasks).toEqual(['T123', 'T4567']);
  });

  it('names other commands by what they did, and unknown ones by their command', () => {
    const lock = record({
      command: 'tool lock',
      args: { tool: 'mytool', reason: ['db', 'migration'], take: false },
    });
    expect(logged(salLine(lock, CHANNEL, LINK)).message).toBe(
      `ada (discord) locked the tool: db migration (${LINK})`,
    );
    const restart = record({
      command: 'jobs restart',
      args: { tool: 'mytool', job: 'web', approvedBy: 'grace' },
    });
    expect(logged(salLine(restart, CHANNEL, LINK)).message).toBe(
      `ada (discord) restarted the job job=web (approved by grace) (${LINK})`,
    );
    const other = record({ command: 'token delete', args: { tool: 'mytool' } });
    expect(logged(salLine(other, CHANNEL, LINK)).message).toBe(`ada (discord) ran /token delete (${LINK})`);
  });

  it('keeps untrusted text inert: one line, no formatting, nothing the wiki or Phabricator would read as markup', () => {
    const name =
      'eve\r\n!log tools.other pwned \x02\x0304bold\u202e {{tpl}} [[Main Page]] <b>x</b> ~~~~ @bd808';
    const description = "''bold'' |pipe| {lone}\u2028next";
    const line = salLine(record({ name, args: { tool: 'mytool', description } }), CHANNEL, LINK);
    const out = logged(line);
    expect(out.project).toBe('tools.mytool');
    expect(line).not.toMatch(/[\x00-\x1f\u2028\u2029\u202e]/);
    expect(wikiSafe(out.message)).toBe(out.message);
    expect(out.message).not.toMatch(/\[\[|\{\{|<b>|~~~|''|@bd808/);
    expect(out.message).toContain('eve !log tools.other pwned bold');
  });

  it('cuts a long line to one relayed line on a character boundary, keeping every task id', () => {
    const description = `${'Übergang 🚀 '.repeat(60)} T98765 and T42`;
    const line = salLine(record({ args: { tool: 'mytool', description } }), CHANNEL, LINK) as string;
    const out = logged(line);
    expect(Buffer.from(line, 'utf8').toString('utf8')).toBe(line);
    expect(line).not.toContain('\uFFFD');
    expect(out.message).toContain('…');
    expect(out.message.endsWith(`T98765 T42 (${LINK})`)).toBe(true);
    expect(out.tasks).toEqual(['T98765', 'T42']);
  });

  it('never leaves half a task id at a cut', () => {
    const description = `${'x '.repeat(150)}T123456789 more words after it ${'y '.repeat(100)}`;
    const out = logged(salLine(record({ args: { tool: 'mytool', description } }), CHANNEL, LINK));
    expect(out.tasks).toEqual(['T123456789']);
  });

  it('gives no line for a record without a tool name Toolforge could have', () => {
    expect(salLine(record({ tool: 'My Tool' }), CHANNEL, LINK)).toBeUndefined();
    const { tool: _none, ...noTool } = record();
    expect(salLine(noTool, CHANNEL, LINK)).toBeUndefined();
  });
});
