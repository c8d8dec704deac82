/**
 * Command lanes: the commands of one person in one conversation run one after another, in the order
 * they arrived, whichever worker takes them. A lane is a Redis list of job ids (FIFO) that a command
 * joins before its job is queued and leaves when its job ends, however it ends; a job runs only at
 * the head of its lane. Everything is in Redis, so a worker that restarts (or another one) reads the
 * same order.
 */
import type { Redis } from 'ioredis';
import type { CommandJob } from '../core/command-job';
import { commandLaneWait } from '../metrics';

/** How long a lane's order is kept when nothing more happens in it. */
const LANE_TTL_SECONDS = 24 * 3600;

/**
 * A lane head that never became a job (its web process died between joining the lane and queuing)
 * is dropped once a later command of the lane has waited this long behind it.
 */
export const MISSING_HEAD_MS = 10_000;

/** The lane of a command: its conversation and the person who gave it. */
export function laneOf(job: CommandJob): string {
  const user = job.invocation.user;
  return `${job.invocation.conversationId}|${user.platform}:${user.workspace}:${user.id}`;
}

/**
 * Redis key of a lane's FIFO (job ids in arrival order). Every lane carries the `commands` queue's
 * hash tag (see `bullPrefix`): a burst's lanes are joined in one script, which on a Redis Cluster
 * needs its keys in one slot — the slot of the queue the jobs go to.
 */
export function laneKey(prefix: string, lane: string): string {
  return `${prefix}cmd:lane:{commands}:${lane}`;
}

/**
 * Joins each job to the end of its lane (KEYS[i] gets ARGV[i]), renews every lane's expiry
 * (ARGV[#KEYS + 1] seconds) and returns the lanes' new lengths: one command, atomic, for a burst.
 */
const JOIN_LANES = `local lengths = {}
for i, key in ipairs(KEYS) do
  lengths[i] = redis.call('RPUSH', key, ARGV[i])
  redis.call('EXPIRE', key, ARGV[#KEYS + 1])
end
return lengths`;

/**
 * Joins each job id to the end of its lane in one script and returns each lane's new length: a job
 * whose lane had length 1 is its head from the start and stays the head until it leaves.
 */
export async function joinLanes(
  redis: Redis,
  prefix: string,
  entries: readonly { lane: string; id: string }[],
): Promise<number[]> {
  const keys = entries.map(({ lane }) => laneKey(prefix, lane));
  const ids = entries.map(({ id }) => id);
  return (await redis.eval(JOIN_LANES, keys.length, ...keys, ...ids, LANE_TTL_SECONDS)) as number[];
}

/** What {@link isLaneTurn} needs: the lanes, and the queue's word on a head's job. */
export interface LaneTurnDeps {
  redis: Redis;
  prefix: string;
  /** The queue's state of a job (`completed`, `failed`, `active`, `unknown`, …). */
  jobState(id: string): Promise<string>;
  /** Told when a head that is not running is dropped. */
  dropped?(lane: string, head: string, state: string): void;
}

/**
 * True when job `id` (queued at `queuedAt`, ms) is at the head of `lane`. Heads whose job ended,
 * and heads that never became a job ({@link MISSING_HEAD_MS}), are dropped on the way.
 */
export async function isLaneTurn(
  deps: LaneTurnDeps,
  lane: string,
  id: string,
  queuedAt: number,
): Promise<boolean> {
  const key = laneKey(deps.prefix, lane);
  for (;;) {
    const head = await deps.redis.lindex(key, 0);
    if (head === null || head === id) return true;
    if ((await deps.redis.lpos(key, id)) === null) return true;
    const state = await deps.jobState(head);
    const ended = state === 'completed' || state === 'failed';
    const neverCame = state === 'unknown' && Date.now() - queuedAt > MISSING_HEAD_MS;
    if (!ended && !neverCame) return false;
    deps.dropped?.(lane, head, state);
    await deps.redis.lrem(key, 0, head);
  }
}

/** Removes job `id` from `lane` (its job ended, or failed for good without running). */
export async function leaveLane(redis: Redis, prefix: string, lane: string, id: string): Promise<void> {
  await redis.lrem(laneKey(prefix, lane), 0, id);
}

/**
 * Records how long a command waited behind earlier commands of its lane: from when its job was
 * queued (`queuedAt`, ms) until its turn; a command that joined an empty lane waited none.
 */
export function recordLaneWait(queuedAt: number, joinedEmpty: boolean): void {
  commandLaneWait.observe(joinedEmpty ? 0 : Math.max(0, Date.now() - queuedAt) / 1000);
}
