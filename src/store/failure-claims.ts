/**
 * Failures and their claims in Redis. A failing scope (a tool's job, or its deployments) is one hash,
 * `<prefix>failure:{<tool>}:<scope>` (fields: `key` and `event` of the announced failure, `card`,
 * `claim`, `pending` — the success awaiting confirmation as a recovery), and one set of the posted
 * copies' handles, `<prefix>failure-cards:{<tool>}:<scope>`. Both keys are tagged by the tool (one
 * Cluster slot) and every change is one script, so two presses at once leave exactly one claim.
 * Records lapse {@link RECORD_TTL_MS} after their last change. The scopes of a tool that were
 * claimed are kept in `<prefix>failure-claimed:{<tool>}` (same slot), so the claims on a tool are found
 * without a scan; a scope whose claim ended is dropped from it when it is read.
 */
import type { Redis } from 'ioredis';
import type { MessageHandle } from '../core/command';
import type {
  ClaimResult,
  FailureClaim,
  FailureClaims,
  FailureScope,
  FailureState,
  GateVerdict,
  HandoffResult,
} from '../core/failure-claim';
import { scopeOf } from '../core/failure-claim';
import { readJson } from '../core/json';
import type { DraftCard } from '../core/reply';
import type { WatchEvent } from '../core/watch';

/** How long a failure's record is kept after its last change (30 days). */
export const RECORD_TTL_MS = 30 * 86_400_000;

const TOUCH = `redis.call('pexpire', KEYS[1], ARGV[1]) redis.call('pexpire', KEYS[2], ARGV[1])`;

/** ARGV: ttl, event key, outcome, event JSON. */
const GATE = `if redis.call('hexists', KEYS[1], 'claim') == 1 then
  if ARGV[3] == 'success' then redis.call('hset', KEYS[1], 'pending', ARGV[2]) ${TOUCH} return 'recovering' end
  redis.call('hdel', KEYS[1], 'pending') ${TOUCH}
  return 'silenced'
end
if ARGV[3] == 'failure' then
  if redis.call('hget', KEYS[1], 'key') ~= ARGV[2] then
    redis.call('del', KEYS[1], KEYS[2])
    redis.call('hset', KEYS[1], 'key', ARGV[2], 'event', ARGV[4])
  end
  ${TOUCH}
else
  redis.call('del', KEYS[1], KEYS[2])
end
return 'announce'`;

/** ARGV: ttl, event key, handle JSON, card JSON. */
const POSTED = `if redis.call('hget', KEYS[1], 'key') ~= ARGV[2] then return 0 end
redis.call('sadd', KEYS[2], ARGV[3])
redis.call('hsetnx', KEYS[1], 'card', ARGV[4])
${TOUCH}
return 1`;

/**
 * KEYS: record, cards, the tool's index of claimed scopes. ARGV: ttl, claim JSON, holder, scope part.
 * Returns {0} (nothing to claim), {2, held} (someone else's, or the holder's own not offered:
 * unchanged) or {1, previous}.
 */
const CLAIM = `if redis.call('hexists', KEYS[1], 'key') == 0 then return {0, ''} end
local held = redis.call('hget', KEYS[1], 'claim')
if held then
  local ok, current = pcall(cjson.decode, held)
  if ok and not current.offeredTo then return {2, held} end
end
redis.call('hset', KEYS[1], 'claim', ARGV[2])
${TOUCH}
redis.call('sadd', KEYS[3], ARGV[4])
redis.call('pexpire', KEYS[3], ARGV[1])
return {1, held or ''}`;

/** ARGV: ttl, holder, to. Returns {0} (unclaimed), {2, held} (someone else's) or {1, new claim}. */
const HANDOFF = `local held = redis.call('hget', KEYS[1], 'claim')
if not held then return {0, ''} end
local current = cjson.decode(held)
if current.holder ~= ARGV[2] then return {2, held} end
current.offeredTo = ARGV[3]
local updated = cjson.encode(current)
redis.call('hset', KEYS[1], 'claim', updated)
${TOUCH}
return {1, updated}`;

/** Removes the claim (and a pending recovery); returns what it held. */
const RELEASE = `local held = redis.call('hget', KEYS[1], 'claim')
if held then redis.call('hdel', KEYS[1], 'claim', 'pending') end
return held`;

/** ARGV: event key. Returns the record and its copies and deletes them, when the key is still pending. */
const RECOVER = `if redis.call('hget', KEYS[1], 'pending') ~= ARGV[1] then return false end
local all = redis.call('hgetall', KEYS[1])
local cards = redis.call('smembers', KEYS[2])
redis.call('del', KEYS[1], KEYS[2])
return {all, cards}`;

/** One state change's identity, the same each time a retried job hands it over. */
function keyOf(event: WatchEvent): string {
  return `${event.kind}|${event.id}|${event.to}|${event.serial ?? ''}|${event.at}`;
}

/** The scope's part of its keys: `job:<name>`, or `deployments` for a tool's unnamed scope. */
function partOf(scope: FailureScope): string {
  return scope.job ? `job:${scope.job}` : 'deployments';
}

/** The scope of a key part ({@link partOf} read back). */
function scopeOfPart(tool: string, part: string): FailureScope {
  return part.startsWith('job:') ? { tool, job: part.slice(4) } : { tool };
}

function stateOf(scope: FailureScope, pairs: string[], handles: string[]): FailureState | undefined {
  const all: Record<string, string> = {};
  for (let i = 0; i + 1 < pairs.length; i += 2) all[pairs[i] as string] = pairs[i + 1] as string;
  const event = readJson<WatchEvent>(all.event);
  if (!event) return undefined;
  const card = readJson<DraftCard>(all.card);
  const claim = readJson<FailureClaim>(all.claim);
  return {
    scope,
    event,
    ...(card ? { card } : {}),
    ...(claim ? { claim } : {}),
    cards: handles.flatMap((raw) => readJson<MessageHandle>(raw) ?? []),
  };
}

/** {@link FailureClaims} on Redis; `redraw` hands the cards' edit to whoever can post (the queue). */
export class RedisFailureClaims implements FailureClaims {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly redrawCards: (scope: FailureScope) => Promise<void> = async () => undefined,
  ) {}

  redraw(scope: FailureScope): Promise<void> {
    return this.redrawCards(scope);
  }

  private claimedKey(tool: string): string {
    return `${this.prefix}failure-claimed:{${tool}}`;
  }

  private keys(scope: FailureScope): [string, string] {
    const part = partOf(scope);
    return [
      `${this.prefix}failure:{${scope.tool}}:${part}`,
      `${this.prefix}failure-cards:{${scope.tool}}:${part}`,
    ];
  }

  private scopeKeys(event: WatchEvent): [string, string] {
    const scope = scopeOf(event);
    if (!scope) throw new Error(`a ${event.kind} cannot be claimed`);
    return this.keys(scope);
  }

  async gate(event: WatchEvent): Promise<GateVerdict> {
    const [record, cards] = this.scopeKeys(event);
    const ttl = String(RECORD_TTL_MS);
    const outcome = event.outcome ?? '';
    return (await this.redis.eval(
      GATE,
      2,
      record,
      cards,
      ttl,
      keyOf(event),
      outcome,
      JSON.stringify(event),
    )) as GateVerdict;
  }

  async posted(event: WatchEvent, handle: MessageHandle, card: DraftCard): Promise<void> {
    const { delivery: _delivery, ...shown } = card;
    const [record, cards] = this.scopeKeys(event);
    const ttl = String(RECORD_TTL_MS);
    await this.redis.eval(
      POSTED,
      2,
      record,
      cards,
      ttl,
      keyOf(event),
      JSON.stringify(handle),
      JSON.stringify(shown),
    );
  }

  async state(scope: FailureScope): Promise<FailureState | undefined> {
    const [record, cards] = this.keys(scope);
    const [all, handles] = await Promise.all([this.redis.hgetall(record), this.redis.smembers(cards)]);
    return stateOf(scope, Object.entries(all).flat(), handles);
  }

  async claim(scope: FailureScope, claim: FailureClaim): Promise<ClaimResult> {
    const [record, cards] = this.keys(scope);
    const ttl = String(RECORD_TTL_MS);
    const [code, other] = (await this.redis.eval(
      CLAIM,
      3,
      record,
      cards,
      this.claimedKey(scope.tool),
      ttl,
      JSON.stringify(claim),
      claim.holder,
      partOf(scope),
    )) as [number, string];
    if (code === 0) return { kind: 'none' };
    const found = readJson<FailureClaim>(other);
    if (code === 2 && found) return { kind: 'held', claim: found };
    const state = await this.state(scope);
    if (!state) return { kind: 'none' };
    const previous = found && found.holder !== claim.holder ? found : undefined;
    return { kind: 'taken', state, previous };
  }

  async claimedOn(tool: string): Promise<FailureState[]> {
    const key = this.claimedKey(tool);
    const parts = (await this.redis.smembers(key)).sort();
    const claimed: FailureState[] = [];
    const ended: string[] = [];
    for (const part of parts) {
      const state = await this.state(scopeOfPart(tool, part));
      if (state?.claim) claimed.push(state);
      else ended.push(part);
    }
    if (ended.length > 0) await this.redis.srem(key, ...ended);
    return claimed;
  }

  async handoff(scope: FailureScope, holder: string, to: string): Promise<HandoffResult> {
    const [record, cards] = this.keys(scope);
    const ttl = String(RECORD_TTL_MS);
    const [code, other] = (await this.redis.eval(HANDOFF, 2, record, cards, ttl, holder, to)) as [
      number,
      string,
    ];
    const found = readJson<FailureClaim>(other);
    if (code === 2 && found) return { kind: 'not-holder', claim: found };
    const state = code === 1 ? await this.state(scope) : undefined;
    return state ? { kind: 'offered', state } : { kind: 'none' };
  }

  async release(scope: FailureScope): Promise<{ state: FailureState; released: FailureClaim } | undefined> {
    const [record] = this.keys(scope);
    const released = readJson<FailureClaim>((await this.redis.eval(RELEASE, 1, record)) as string | null);
    const state = released ? await this.state(scope) : undefined;
    return released && state ? { state, released } : undefined;
  }

  async awaits(event: WatchEvent): Promise<boolean> {
    return (await this.redis.hget(this.scopeKeys(event)[0], 'pending')) === keyOf(event);
  }

  async recover(event: WatchEvent): Promise<FailureState | undefined> {
    const scope = scopeOf(event);
    if (!scope) return undefined;
    const [record, cards] = this.keys(scope);
    const found = (await this.redis.eval(RECOVER, 2, record, cards, keyOf(event))) as
      | [string[], string[]]
      | null;
    return found ? stateOf(scope, found[0], found[1]) : undefined;
  }
}
