/**
 * The SAL bridge on its own: which change records become lines, one line per change id, a tool with
 * its SAL off gives none, and a link that is slow or failing never reaches the caller.
 */
import { describe, expect, it } from 'vitest';
import { logChange, type SalBridgeDeps, salBridge } from '../../../commands/toolhost/sal/bridge';
import type { AdminLogService } from '../../../commands/toolhost/sal/service';
import type { AdminLogOutbox } from '../../../src/core/admin-log-outbox';
import { type ChangeRecord, changeRecordOf } from '../../../src/core/change-record';
import type { Invocation } from '../../../src/core/command';
import { MemoryOutbox } from '../../support/sal-outbox';
import { loggedBySal } from '../../support/stashbot-sal';
import { waitFor } from '../../support/wait';

function service(defaultOn: boolean, settings: Record<string, boolean> = {}): AdminLogService {
  return {
    channel: '#wikimedia-cloud-feed',
    defaultOn,
    setting: async (tool) => settings[tool],
    set: async (tool, on) => {
      const before = settings[tool];
      settings[tool] = on;
      return before;
    },
  };
}

const logs: string[] = [];
function deps(over: { outbox?: AdminLogOutbox; service?: AdminLogService } = {}): SalBridgeDeps {
  const outbox = over.outbox ?? new MemoryOutbox();
  return {
    service: over.service ?? service(true),
    outbox: () => outbox,
    keep: async () => {},
    link: (id) => `https://deckhand.example.org/changes/${id}`,
    logger: {
      warn: (_o: unknown, m: string) => logs.push(m),
      error: (_o: unknown, m: string) => logs.push(m),
    } as never,
  };
}

const invocation = (key?: string): Invocation => ({
  user: { platform: 'telegram', workspace: 'w', id: 'U1', name: 'ada' },
  conversation: { platform: 'telegram', workspace: 'w', channel: 'C1' },
  conversationId: 'telegram:w:C1',
  isPrivate: false,
  ...(key ? { key } : {}),
});

const change = (tool: string, key?: string, outcome = 'ok', command = 'jobs restart'): ChangeRecord =>
  changeRecordOf({ invocation: invocation(key), command, args: { tool, job: 'web' }, outcome }, undefined, 1);

describe('the SAL bridge', () => {
  it('writes one line for two records of one delivery (a retried command), two for two deliveries', async () => {
    const outbox = new MemoryOutbox();
    const d = deps({ outbox });
    await logChange(d, change('mytool', 'telegram:trigger:1'));
    await logChange(d, change('mytool', 'telegram:trigger:1'));
    await logChange(d, change('mytool', 'telegram:trigger:2'));
    expect(outbox.calls).toBe(3);
    expect(outbox.lines).toHaveLength(2);
    for (const { line } of outbox.lines) {
      expect(loggedBySal(line, ['tools.mytool'])).toMatchObject({ project: 'tools.mytool' });
    }
  });

  it('writes nothing for a tool whose SAL is off, while the same change of a tool that is on is written', async () => {
    const outbox = new MemoryOutbox();
    const d = deps({ outbox, service: service(true, { quiet: false }) });
    await logChange(d, change('quiet', 'k:1'));
    expect(outbox.lines).toEqual([]);
    await logChange(d, change('mytool', 'k:1'));
    expect(outbox.lines.map((l) => l.line)).toEqual([
      expect.stringMatching(/^!log tools\.mytool ada \(telegram\) restarted the job/),
    ]);
  });

  it('writes nothing for refusals, for commands that change no tool, or when the default is off', async () => {
    const outbox = new MemoryOutbox();
    await logChange(deps({ outbox }), change('mytool', 'k:2', 'permission'));
    await logChange(deps({ outbox }), change('mytool', 'k:3', 'ok', 'tool bind'));
    await logChange(deps({ outbox, service: service(false) }), change('mytool', 'k:4'));
    expect(outbox.calls).toBe(0);
  });

  it('returns at once while the link is slow, and only logs a link that fails', async () => {
    let release: (() => void) | undefined;
    const slow = new MemoryOutbox();
    const held: AdminLogOutbox = {
      enqueue: (channel, line, id) =>
        new Promise<void>((resolve) => {
          release = () => void slow.enqueue(channel, line, id).then(resolve);
        }),
    };
    const hook = salBridge(deps({ outbox: held }));
    expect(hook(change('mytool', 'k:5'))).toBeUndefined();
    const go = await waitFor(() => release);
    expect(slow.lines).toEqual([]);
    go();
    await waitFor(() => (slow.lines.length === 1 ? true : undefined));

    const failing = salBridge(
      deps({ outbox: { enqueue: async () => Promise.reject(new Error('link gone')) } }),
    );
    failing(change('mytool', 'k:6'));
    await waitFor(() => (logs.includes('SAL line could not be queued') ? true : undefined));
  });
});
