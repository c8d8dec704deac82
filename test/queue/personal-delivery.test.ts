/** Where the direct message about ended work is queued, decided without Redis (a recording queue). */
import { describe, expect, it } from 'vitest';
import type { ChatUser } from '../../src/core/command';
import {
  DEFAULT_NOTIFY_SETTINGS,
  type NotifySettings,
  type PersonalNotifications,
} from '../../src/core/personal-notify';
import { silentLogger } from '../../src/log';
import { queuePersonal } from '../../src/queue/personal-delivery';
import type { Queues } from '../../src/queue/queues';
import { buildEnded } from '../support/watch-events';

const here: ChatUser = { platform: 'slack', workspace: 'T1', id: 'U1', name: 'ada' };
const there: ChatUser = { platform: 'telegram', workspace: '777', id: '42', name: 'ada' };

function rig(settings: Partial<NotifySettings>) {
  const added: { queue: string; data: unknown; jobId: string }[] = [];
  const queue = (name: string) => ({
    async add(_job: string, data: unknown, opts: { jobId: string }) {
      added.push({ queue: name, data, jobId: opts.jobId });
    },
  });
  const queues = { 'deliver-slack': queue('deliver-slack'), 'deliver-telegram': queue('deliver-telegram') };
  const store = {
    settingsOf: async () => ({ ...DEFAULT_NOTIFY_SETTINGS, accounts: {}, ...settings }),
  } as unknown as PersonalNotifications;
  return { added, queues: queues as unknown as Queues, store };
}

const ended = (minutesAgo: number) => ({
  ...buildEnded('b-1'),
  starter: { user: here, conversationId: 'slack:T1:C1', startedAt: Date.now() - minutesAgo * 60_000 },
});

describe('queuing the direct message', () => {
  it('goes to the preferred platform while its adapter runs, else where the work was started', async () => {
    const { added, queues, store } = rig({ via: 'telegram', accounts: { telegram: there } });
    const deps = { settings: store, minDurationMs: 60_000 };
    expect(
      await queuePersonal(
        { ...deps, available: () => ['slack', 'telegram'] },
        queues,
        ended(2),
        silentLogger,
      ),
    ).toEqual(there);
    expect(
      await queuePersonal({ ...deps, available: () => ['slack'] }, queues, ended(2), silentLogger),
    ).toEqual(here);
    expect(added.map((a) => a.queue)).toEqual(['deliver-telegram', 'deliver-slack']);
  });

  it('queues the same job id for the same ended work (a retried fan-out adds nothing new)', async () => {
    const { added, queues, store } = rig({});
    const event = ended(2);
    await queuePersonal({ settings: store, minDurationMs: 60_000 }, queues, event, silentLogger);
    await queuePersonal(
      { settings: store, minDurationMs: 60_000 },
      queues,
      { ...event, at: event.at + 5 },
      silentLogger,
    );
    expect(new Set(added.map((a) => a.jobId)).size).toBe(1);
  });

  it('queues nothing for short work, or for work nobody started from chat', async () => {
    const { added, queues, store } = rig({});
    const deps = { settings: store, minDurationMs: 60_000 };
    expect(await queuePersonal(deps, queues, ended(0.2), silentLogger)).toBe('short');
    expect(await queuePersonal(deps, queues, buildEnded('b-2'), silentLogger)).toBe('no starter');
    expect(added).toEqual([]);
    // Positive control: the same, long enough.
    await queuePersonal(deps, queues, ended(2), silentLogger);
    expect(added).toHaveLength(1);
  });
});
