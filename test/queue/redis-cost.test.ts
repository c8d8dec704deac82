/**
 * The Redis cost of a queued `/deploy`, pinned: the requests the web and the worker send for it and
 * the commands Redis runs (benchmark 9 measures the same with more repeats, against the targets).
 * The counts are the same on every machine, so a change that adds a Redis request or a round trip to
 * the command's path fails here. A repeat may also count an idle worker's periodic check or a poll of
 * the running watch that fell in the same milliseconds, so the least of a few repeats is judged.
 */
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { CostDeckhand } from '../../bench/lib/cost-deckhand';
import { type DeployCost, measureDeploy } from '../../bench/lib/redis-cost';
import { type CostRig, useCostDeckhand } from '../support/cost-deckhand';

/**
 * Requests of a `/deploy` that finds its deployment running: web 3 (claim, lane, job) + worker 18
 * (the effect record's two scripts among them: its claim before the command runs, its outcome after
 * the reply — each must finish before the next step, so neither shares a round trip; the watch's
 * card registration reads its job in one round trip; the card's confirm dialogs read nothing; the
 * tool's lock and freeze windows in one script, its approval policy read alongside; the linked
 * identity read for the change record before it is written).
 */
const MAX_REQUESTS = 21;
/**
 * Commands Redis runs for it, inside BullMQ's and Deckhand's scripts included; the effect record's
 * claim and outcome scripts (HSETNX, HMGET, HSET, an EXPIRE each) account for six of them, the change
 * guard's script (GET, HGETALL) and the approval policy's GET for three.
 */
const MAX_COMMANDS = 102;

let admin: Redis;
let deckhand: CostDeckhand;
let counter: CostRig['counter'];

useCostDeckhand('cost:', (rig) => {
  ({ admin, deckhand, counter } = rig);
});

describe('the Redis cost of a queued /deploy', () => {
  it(`is at most ${MAX_REQUESTS} requests and ${MAX_COMMANDS} Redis commands, and its card is posted`, async () => {
    await measureDeploy(deckhand, admin, counter, 'CPIN0', 'mytool');
    const costs: DeployCost[] = [];
    for (let i = 1; i <= 5; i++)
      costs.push(await measureDeploy(deckhand, admin, counter, `CPIN${i}`, 'mytool'));

    const requests = Math.min(...costs.map((c) => c.webCalls + c.workerCalls));
    const commands = Math.min(...costs.map((c) => c.commands));
    expect(requests, JSON.stringify(costs.map((c) => c.workerByName))).toBeLessThanOrEqual(MAX_REQUESTS);
    expect(commands, JSON.stringify(costs.map((c) => c.byName))).toBeLessThanOrEqual(MAX_COMMANDS);
    // What the person saw: one card, showing the deployment already running.
    const [card, ...more] = deckhand.fake.channelMessages('CPIN5');
    expect(more).toEqual([]);
    expect(JSON.stringify(card?.attachments)).toContain('A deployment is already running');
  }, 120_000);
});
