/**
 * What an idle web + worker pair costs Redis, pinned: the commands Redis runs (INFO commandstats,
 * commands inside scripts included) over a minute and more with nothing to do, against a server of
 * its own. BullMQ's idle workers are most of it (one blocking read and one check per queue every
 * 10 s or a minute, a stalled-job check every `QUEUE_LOCK_MS`), so a worker started for a queue this
 * process cannot serve, or a shorter wait, fails here. The window covers every queue's longest wait,
 * so each queue's periodic check is counted at least once.
 */
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { CostDeckhand } from '../../bench/lib/cost-deckhand';
import { measureIdle } from '../../bench/lib/redis-cost';
import { type CostRig, useCostDeckhand } from '../support/cost-deckhand';
import { waitFor } from '../support/wait';

/** Commands per second of the idle pair (the target; about 4.5 are expected). */
const MAX_COMMANDS_PER_SECOND = 5;
/** Longer than the longest idle wait of a queue's worker (60 s). */
const WINDOW_MS = 65_000;

let admin: Redis;
let deckhand: CostDeckhand;
let counter: CostRig['counter'];

useCostDeckhand('idle:', (rig) => {
  ({ admin, deckhand, counter } = rig);
});

describe('the Redis cost of an idle web and worker', () => {
  it(`is at most ${MAX_COMMANDS_PER_SECOND} Redis commands per second, and a command typed then is answered`, async () => {
    // Start-up traffic settles (each worker's first checks).
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idle = await measureIdle(deckhand, admin, counter, WINDOW_MS);
    expect(idle.commandsPerSecond, JSON.stringify(idle.byName)).toBeLessThanOrEqual(MAX_COMMANDS_PER_SECOND);
    // The workers were waiting all along: a command typed now is picked up and answered.
    await deckhand.driver.command({ id: 'UADMIN', name: 'ada' }, 'CIDLE', '/deploy mytool');
    await waitFor(() => deckhand.fake.channelMessages('CIDLE').length > 0, 30_000);
    expect(JSON.stringify(deckhand.fake.channelMessages('CIDLE')[0]?.attachments)).toContain('mytool');
  }, 180_000);
});
