import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CalendarSandbox,
  SANDBOX_CALENDAR_USERS,
  startCalendarSandbox,
} from '@deckhand/sandbox/calendar';
import { startToolhostSandbox, type ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config';
import type { CardSurface } from '../../src/core/card-surface';
import type { Card } from '../../src/core/reply';
import { silentLogger } from '../../src/log';
import { ToolhostClientFactory } from '../../src/services/toolhost';
import { type App, createApp } from '../../src/wiring';
import { invocationAt } from '../support/invocation';
import { storedUnder, testPrefix, testRedis } from '../support/redis';
import { waitFor } from '../support/wait';
import { readRecords, sandboxEnv, spawnWorker, stopWorker } from '../support/worker-process';

/**
 * Secrets are masked by where they live, not by what someone once typed. Ordinary
 * words stay readable whatever envvar or refused password was typed; a secret printed in a job log is
 * masked in a channel by a new process on the same Redis (a restart) and by a separate worker
 * process; and Redis holds none of them in plaintext.
 */
let sandbox: ToolhostSandbox;
let platform: ToolhostClientFactory;
let env: Record<string, string>;
let redis: Redis;
const apps: App[] = [];
let worker: ChildProcess | undefined;

const SECRETS = {
  envvar: `Ev${randomBytes(12).toString('hex')}`,
  /** The sandbox's own token (set below): `/link tool` checks a token with the platform first. */
  deployToken: '',
  /** A password the sandbox calendar accepts (`/link calendar` checks it with the site first). */
  calendar: SANDBOX_CALENDAR_USERS.contributor.appPassword,
};
let calendar: CalendarSandbox;

beforeAll(async () => {
  sandbox = await startToolhostSandbox({ stepMs: 100 });
  SECRETS.deployToken = sandbox.deployTokenFor('mytool') as string;
  calendar = await startCalendarSandbox();
  platform = ToolhostClientFactory.forSandbox(sandbox);
  const { host, port } = inject('redis');
  env = {
    ...sandboxEnv(sandbox),
    CALENDAR_URL: calendar.restRoot,
    REDIS_URL: `redis://${host}:${port}/${Number(process.env.VITEST_POOL_ID ?? 1) % 64}`,
    REDIS_KEY_PREFIX: testPrefix(),
    SECRET_KEY: randomBytes(32).toString('hex'),
    ADMINS: 'slack:UADMIN',
    TAIL_EDIT_MS: '200',
    QUEUE_LOCK_MS: '1500',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'deckhand-secrets-')),
    RECORD_FILE: join(mkdtempSync(join(tmpdir(), 'deckhand-rec-')), 'records.jsonl'),
  };
  redis = testRedis();
});
afterAll(async () => {
  if (worker) await stopWorker(worker, 'SIGTERM');
  for (const app of apps) await app.close();
  await redis.quit();
  await platform.close();
  await sandbox.close();
  await calendar.close();
});

/** A web-role core of Deckhand in this process (a new one is a restart: new objects, same Redis). */
async function start(): Promise<{ app: App; say: (text: string, isPrivate?: boolean) => Promise<Card[]> }> {
  const app = await createApp({ config: loadConfig(env), logger: silentLogger, sandbox: false });
  apps.push(app);
  const say = async (text: string, isPrivate = false) => {
    const cards: Card[] = [];
    const surface: CardSurface = {
      async reply(card) {
        cards.push(card);
        return { platform: 'slack', conversationId: 'slack:T1:CPUB', ref: { ts: `reply-${cards.length}` } };
      },
      async update(_handle, card) {
        cards.push(card);
      },
    };
    const place = {
      platform: 'slack',
      workspace: 'T1',
      channel: isPrivate ? 'DADMIN' : 'CPUB',
      private: isPrivate,
    } as const;
    const invocation = invocationAt(place, 'UADMIN', 'admin');
    await app.runner.handleText(text, invocation, surface);
    return cards;
  };
  return { app, say };
}

/** A continuous job of mytool that prints `words` over and over (the sandbox's `yes`). */
async function printingJob(name: string, words: string): Promise<void> {
  await platform.forTool('mytool').jobs.create({
    job_type: 'continuous',
    name,
    cmd: `yes ${words}`,
    imagename: 'python3.11',
    filelog: false,
  });
}

const text = (cards: Card[]) => JSON.stringify(cards);

describe('secrets masked by where they live', () => {
  it('an envvar set to `running` changes no other output; a secret envvar is masked in its job log', async () => {
    const { say } = await start();
    expect(text(await say('/envvars set mytool APP_STATE running', true))).toContain('Set APP_STATE');
    expect(text(await say(`/envvars set mytool API_TOKEN ${SECRETS.envvar}`, true))).toContain(
      'Set API_TOKEN',
    );
    const show = await say('/jobs show mytool web');
    expect(show[0]?.fields?.find((f) => f.label === 'Status')?.value).toMatch(/^running/);

    await printingJob('envprint', `state running token ${SECRETS.envvar}`);
    const logs = await waitFor(async () => {
      const cards = await say('/logs mytool envprint --lines 5');
      return cards[0]?.code?.text.includes('state running') ? cards : undefined;
    }, 20_000);
    // Positive control: the secret envvar value IS masked, in the same line that keeps `running`.
    expect(logs[0]?.code?.text).toContain('state running token [redacted]');
    expect(text(logs)).not.toContain(SECRETS.envvar);
  });

  it('a refused secret changes nothing later; a stored one is masked', async () => {
    const { say } = await start();
    const refused = await say('/link calendar editor mytool', true);
    expect(refused[0]?.text).toContain('Nothing was stored');
    const list = await say('/jobs list mytool');
    expect(text(list)).not.toContain('[redacted]');
    expect(list[0]?.title ?? list[0]?.text).toContain('mytool');

    expect(text(await say(`/link calendar casey "${SECRETS.calendar}"`, true))).toContain(
      'Stored a calendar',
    );
    await printingJob('calprint', `login with ${SECRETS.calendar} done`);
    const logs = await waitFor(async () => {
      const cards = await say('/logs mytool calprint --lines 5');
      return cards[0]?.code?.text.includes('login with') ? cards : undefined;
    }, 20_000);
    expect(logs[0]?.code?.text).toContain('login with [redacted] done');
    expect(text(logs)).not.toContain(SECRETS.calendar.split(' ')[0]);
  });

  it('a secret printed in a job log is masked after a restart and by a separate worker process', async () => {
    const first = await start();
    expect(text(await first.say(`/link tool mytool ${SECRETS.deployToken}`, true))).toContain('Stored');
    await first.app.close();
    apps.splice(apps.indexOf(first.app), 1);
    await printingJob('tokprint', `deploying with ${SECRETS.deployToken} now`);

    const restarted = await start();
    const logs = await waitFor(async () => {
      const cards = await restarted.say('/logs mytool tokprint --lines 5');
      return cards[0]?.code?.text.includes('deploying with') ? cards : undefined;
    }, 20_000);
    expect(logs[0]?.code?.text).toContain('deploying with [redacted] now');
    expect(text(logs)).not.toContain(SECRETS.deployToken);

    worker = await spawnWorker(env);
    const started = await restarted.say('/logs mytool tokprint --follow');
    expect(started[0]?.title).toContain('tokprint');
    const updates = await waitFor(() => {
      const withLines = readRecords(env.RECORD_FILE as string).filter((r) =>
        r.code?.includes('deploying with'),
      );
      return withLines.length > 0 ? withLines : undefined;
    }, 30_000);
    expect(updates[0]?.code).toContain('deploying with [redacted] now');
    expect(updates.every((r) => r.pid === worker?.pid)).toBe(true);
    // While the tail runs, its transcript is in Redis: masked before it was stored.
    const during = await waitFor(async () => {
      const dump = await redisDump();
      return dump.includes('deploying with [redacted] now') ? dump : undefined;
    });
    expectNoSecret(during);
    await restarted.say('/tail stop job mytool tokprint');
    const ended = await waitFor(
      () => readRecords(env.RECORD_FILE as string).find((r) => r.title?.startsWith('Log of')),
      30_000,
    );
    // The final card carries the whole transcript (kept in Redis, masked before it was stored).
    expect(ended.attachments?.join('\n')).toContain('deploying with [redacted] now');
    expect(JSON.stringify(readRecords(env.RECORD_FILE as string))).not.toContain(SECRETS.deployToken);
  }, 240_000);

  it('leaves none of the secrets in Redis in plaintext after the scenario', async () => {
    const all = await redisDump();
    // Positive control: the scan sees the secret index and the audit entries of the scenario.
    expect(all).toContain(`${env.REDIS_KEY_PREFIX}secrets:`);
    expect(all).toContain('link calendar');
    expectNoSecret(all);
  });
});

/** Every key under the test prefix and every value, of every Redis type, as one string. */
const redisDump = () => storedUnder(redis, env.REDIS_KEY_PREFIX as string);

function expectNoSecret(all: string): void {
  for (const [name, secret] of Object.entries(SECRETS)) {
    expect(all, name).not.toContain(secret);
    for (const part of secret.split(' ')) expect(all, `${name} (part)`).not.toContain(part);
  }
}
