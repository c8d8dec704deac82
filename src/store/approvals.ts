/**
 * Protect policies and approval requests in Redis. A tool's policy is one key,
 * `<prefix>tool-protect:{<tool>}`; an approval request is one key, `<prefix>approval:{<id>}`, holding
 * the request and its decisions as JSON until it expires. A decision is one script on that one key
 * (so it works on a Cluster): the first decision that closes the request wins, and every later one
 * finds it closed, so an approved command is run by exactly one press. The open requests of a tool
 * are indexed in `<prefix>approvals-open:{<tool>}` (a sorted set of ids by expiry), so the requests
 * waiting on a tool are found without a scan; a closed or expired id found there is skipped.
 */
import type { Redis } from 'ioredis';
import type {
  ApprovalDecision,
  ApprovalRecord,
  ApprovalStore,
  DecideResult,
  ToolProtection,
} from '../core/approvals';
import { readJson } from '../core/json';

/**
 * ARGV: decision JSON. Returns `{result, record}`: `gone` (no request), `closed` (already approved
 * or denied), `duplicate` (this person decided already) or `recorded`.
 */
const DECIDE = `local raw = redis.call('get', KEYS[1])
if not raw then return {'gone', ''} end
local record = cjson.decode(raw)
if record.state ~= 'open' then return {'closed', raw} end
local decision = cjson.decode(ARGV[1])
local decisions = record.decisions
if type(decisions) ~= 'table' then decisions = {} end
local approvals = 0
for _, prior in ipairs(decisions) do
  if prior.key == decision.key then return {'duplicate', raw} end
  if prior.kind == 'approved' then approvals = approvals + 1 end
end
table.insert(decisions, decision)
record.decisions = decisions
if decision.kind == 'denied' then
  record.state = 'denied'
elseif approvals + 1 >= tonumber(record.approvers) then
  record.state = 'approved'
end
local out = cjson.encode(record)
redis.call('set', KEYS[1], out, 'KEEPTTL')
return {'recorded', out}`;

/**
 * ARGV: expiry (Unix ms), id. Adds the id to the tool's index of open requests, which then lives as
 * long as its latest request (expired ids are trimmed when it is read).
 */
const INDEX_OPEN = `redis.call('zadd', KEYS[1], ARGV[1], ARGV[2])
local last = redis.call('zrange', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('pexpireat', KEYS[1], last[2])
return 1`;

/** A record as read back: an empty decision list comes out of the script as an empty object. */
function recordOf(raw: string): ApprovalRecord | undefined {
  const record = readJson<ApprovalRecord>(raw);
  if (!record) return undefined;
  return { ...record, decisions: Array.isArray(record.decisions) ? record.decisions : [] };
}

/** {@link ApprovalStore} on Redis. */
export class RedisApprovals implements ApprovalStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private policyKey(tool: string): string {
    return `${this.prefix}tool-protect:{${tool}}`;
  }

  private requestKey(id: string): string {
    return `${this.prefix}approval:{${id}}`;
  }

  private openKey(tool: string): string {
    return `${this.prefix}approvals-open:{${tool}}`;
  }

  async protect(protection: ToolProtection): Promise<void> {
    await this.redis.set(this.policyKey(protection.tool), JSON.stringify(protection));
  }

  async unprotect(tool: string): Promise<ToolProtection | undefined> {
    const raw = (await this.redis.getdel(this.policyKey(tool))) as string | null;
    return readJson<ToolProtection>(raw);
  }

  async protection(tool: string): Promise<ToolProtection | undefined> {
    return readJson<ToolProtection>(await this.redis.get(this.policyKey(tool)));
  }

  async open(record: ApprovalRecord): Promise<void> {
    const ttlMs = Math.max(1000, record.expiresAt - Date.now());
    await this.redis.set(this.requestKey(record.id), JSON.stringify(record), 'PX', ttlMs);
    await this.redis.eval(INDEX_OPEN, 1, this.openKey(record.tool), String(record.expiresAt), record.id);
  }

  async pending(tool: string, options: { now: number; limit: number }): Promise<ApprovalRecord[]> {
    const key = this.openKey(tool);
    const ids = await this.redis.zrangebyscore(key, options.now, '+inf', 'LIMIT', 0, options.limit * 2);
    const open: ApprovalRecord[] = [];
    const closed: string[] = [];
    for (const id of ids) {
      const record = await this.load(id);
      if (record?.state === 'open' && record.expiresAt > options.now) open.push(record);
      else closed.push(id);
      if (open.length >= options.limit) break;
    }
    if (closed.length > 0) await this.redis.zrem(key, ...closed);
    return open;
  }

  async load(id: string): Promise<ApprovalRecord | undefined> {
    if (!/^[0-9A-Za-z]{1,32}$/.test(id)) return undefined;
    const raw = await this.redis.get(this.requestKey(id));
    return raw ? recordOf(raw) : undefined;
  }

  async decide(id: string, decision: ApprovalDecision): Promise<DecideResult> {
    if (!/^[0-9A-Za-z]{1,32}$/.test(id)) return { kind: 'gone' };
    const [kind, raw] = (await this.redis.eval(DECIDE, 1, this.requestKey(id), JSON.stringify(decision))) as [
      string,
      string,
    ];
    const record = raw ? recordOf(raw) : undefined;
    if (kind === 'gone' || !record) return { kind: 'gone' };
    if (record.expiresAt < decision.at && kind === 'recorded') return { kind: 'gone' };
    return { kind: kind as 'recorded' | 'closed' | 'duplicate', record };
  }
}
