/**
 * The embedded redis-server's record, `<DATA_DIR>/redis/running.json`: its pid and URL and the pid of
 * the Deckhand that started it. `deckhand status` reads it to find the embedded Redis; start-up reads
 * it to stop a server orphaned by a Deckhand that was killed (SIGKILL, a crash) — two servers on one
 * append-only directory would corrupt it — and to refuse a second Deckhand on the same DATA_DIR.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the record holds. */
export interface EmbeddedRedisRecord {
  /** The redis-server's pid. */
  pid: number;
  url: string;
  /** The Deckhand process that started it. */
  owner: number;
}

const FILE = 'running.json';

/** True when `pid` is a live process whose command line contains `name`. */
export function processRuns(pid: number, name: string): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(name);
  } catch {
    return true; // no /proc (not Linux): the pid is alive, trust the record
  }
}

/** Writes the record for a server just started. */
export function writeEmbeddedRecord(dir: string, record: EmbeddedRedisRecord): void {
  writeFileSync(join(dir, FILE), `${JSON.stringify(record)}\n`);
}

/** Removes the record (the server stopped). */
export function removeEmbeddedRecord(dir: string, pid: number): void {
  if (readEmbeddedRecord(dir)?.pid === pid) rmSync(join(dir, FILE), { force: true });
}

/** The record, when there is one. */
export function readEmbeddedRecord(dir: string): EmbeddedRedisRecord | undefined {
  try {
    const value = JSON.parse(readFileSync(join(dir, FILE), 'utf8')) as Partial<EmbeddedRedisRecord>;
    if (typeof value.pid === 'number' && typeof value.url === 'string' && typeof value.owner === 'number') {
      return { pid: value.pid, url: value.url, owner: value.owner };
    }
  } catch {
    // none, or unreadable: treated as none
  }
  return undefined;
}

/** The record of an embedded Redis that is running now, else undefined. */
export function runningEmbeddedRedis(dir: string): EmbeddedRedisRecord | undefined {
  const record = readEmbeddedRecord(dir);
  return record && processRuns(record.pid, 'redis-server') ? record : undefined;
}

/** What start-up found under `dir`. */
export type EmbeddedState =
  | { kind: 'free' }
  | { kind: 'in-use'; record: EmbeddedRedisRecord }
  | { kind: 'orphaned'; record: EmbeddedRedisRecord };

/** Whether `dir` is free, used by a running Deckhand, or holds an orphaned server. */
export function embeddedState(dir: string): EmbeddedState {
  const record = runningEmbeddedRedis(dir);
  if (!record) return { kind: 'free' };
  if (record.owner !== process.pid && processRuns(record.owner, 'node')) return { kind: 'in-use', record };
  return { kind: 'orphaned', record };
}

/** Stops an orphaned server (SIGTERM: it writes its append-only file and exits); waits up to 10 s. */
export async function stopOrphan(record: EmbeddedRedisRecord): Promise<void> {
  try {
    process.kill(record.pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + 10_000;
  while (processRuns(record.pid, 'redis-server') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
