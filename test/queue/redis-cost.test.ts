/**
 * The Redis cost of a queued `/deploy`, pinned: the requests the web and the worker send for it and
 * the commands Redis runs (benchmark 9 measures the same with more repeats, against the targets).
 * The counts are the same on every machine, so a change that adds a Redis request or a round trip to
 * the command's path fails here (and one that saves some updates the pin). A repeat may also count
 * an idle worker's periodic check or a poll of the running watch that fell in the same
 * milliseconds, so the least of a few repeats is judged.
 */
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { CostDeckhand } from '../../bench/lib/cost-deckhand';
import { type DeployCost, measureDeploy } from '../../bench/lib/redis-cost';
import { type CostRig, useCostDeckhand } from '../support/cost-deckhand';

/**
 * Requests of a `/deploy` that finds its deployment running: web 3 (claim, lane, job) + worker 11.
 * The worker's: BullMQ's move to active, its next fetch and blocking wait (twice), its move to
 * finished (6); before the first card, one round trip for the first reply's posted-record, the
 * effect record's claim, the approval policy, the tool's lock and freezes, the deploy token, what is
 * already running, the audit's linked identity and the reader's and conversation's languages, then one for the card (secret masking, its
 * button's action, the time zone); after the post, the posted-record with the watch's card
 * registration, the effect outcome with the audit's secret masking, and the audit entry with
 * leaving the lane.
 */
const REQUESTS = 14;
/**
 * Commands Redis runs for it, inside BullMQ's scripts included (about 60 of them are BullMQ's); the
 * effect record's claim (HSETNX, HMGET, EXPIRE) and outcome (HSET) account for four, the record of
 * who started the watched deployment (SET NX, sent with the watch's card registration) for one, and
 * the languages (`/language`: the user's and the conversation's settings, one HMGET) for one, and
 * the Slack reader's cached locale (a GET sent with the delivery claim) for one.
 */
const COMMANDS = 98;

let admin: Redis;
let deckhand: CostDeckhand;
let counter: CostRig['counter'];

useCostDeckhand('cost:', (rig) => {
  ({ admin, deckhand, counter } = rig);
});

describe('the Redis cost of a queued /deploy', () => {
  it(`is ${REQUESTS} requests and ${COMMANDS} Redis commands, and its card is posted`, async () => {
    await measureDeploy(deckhand, admin, counter, 'CPIN0', 'mytool');
    const costs: DeployCost[] = [];
    for (let i = 1; i <= 5; i++)
      costs.push(await measureDeploy(deckhand, admin, counter, `CPIN${i}`, 'mytool'));

    const requests = Math.min(...costs.map((c) => c.webCalls + c.workerCalls));
    const commands = Math.min(...costs.map((c) => c.commands));
    expect(requests, JSON.stringify(costs.map((c) => c.workerByName))).toBe(REQUESTS);
    expect(commands, JSON.stringify(costs.map((c) => c.byName))).toBe(COMMANDS);
    // What the person saw: one card, showing the deployment already running.
    const [card, ...more] = deckhand.fake.channelMessages('CPIN5');
    expect(more).toEqual([]);
    expect(JSON.stringify(card?.attachments)).toContain('A deployment is already running');
  }, 120_000);
});
