/**
 * Telegram end to end, as an operator runs it: the real CLI (`deckhand start --sandbox`) in its own
 * process, long-polling the fake Bot API. A user sends a
 * 200 MB document with `/media upload`; the bot's peak memory growth is measured from outside
 * (/proc), and the bytes the media emulator (in the test process, `MEDIA_API_URL`) stored are
 * compared with the bytes sent.
 *
 * Between the bot and the fake sits a small proxy playing a local Bot API server (which lets bots
 * download files beyond the cloud's 20 MB): it answers `getFile` for the big document and serves
 * its bytes from a deterministic generator, so the 200 MB exist nowhere but on the emulator's disk.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MediaSandbox, startMediaSandbox } from '@deckhand/sandbox/media';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram';
import { type LocalBotApi, startLocalBotApi } from '../fakes/telegram-local-api';
import { memoryOf } from '../support/process-memory';
import { testPrefix } from '../support/redis';
import { waitFor } from '../support/wait';

const ROOT = join(import.meta.dirname, '..', '..');
const MB = 1024 * 1024;
const SIZE = 200 * MB;
const SEED = 'telegram-200mb';

let fake: FakeTelegram;
let media: MediaSandbox;
let proxy: LocalBotApi | undefined;
let bot: ChildProcess | undefined;
let dataDir = '';

beforeAll(async () => {
  fake = await startFakeTelegram();
  proxy = await startLocalBotApi(fake, { size: SIZE, seed: SEED });
  dataDir = mkdtempSync(join(tmpdir(), 'deckhand-tg-media-'));
  // The media host runs here, so the bot process measured below is Deckhand alone.
  media = await startMediaSandbox({ dataDir, stepMs: 20 });
  const { host, port } = inject('redis');
  const db = Number(process.env.VITEST_POOL_ID ?? 1) % 64;
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'deckhand.mjs'), 'start', '--sandbox'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      REDIS_URL: `redis://${host}:${port}/${db}`,
      REDIS_KEY_PREFIX: testPrefix(),
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SANDBOX_STEP_MS: '20',
      SECRET_KEY: randomBytes(32).toString('hex'),
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_API_ROOT: proxy.url,
      MEDIA_API_URL: media.apiUrl,
      MEDIA_API_KEY: media.apiKey,
      ADMINS: 'telegram:501',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  bot = child;
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  await waitFor(() => {
    if (child.exitCode !== null) throw new Error(`deckhand exited with ${child.exitCode}:\n${errors}`);
    return errors.includes('Deckhand is serving telegram');
  }, 30_000);
});

afterAll(async () => {
  if (bot && bot.exitCode === null) {
    const exited = new Promise((resolve) => bot?.once('exit', resolve));
    bot.kill('SIGTERM');
    await exited;
  }
  await proxy?.close();
  await fake?.close();
  await media?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function sha256Of(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

describe('Telegram → media host, 200 MB', () => {
  it('streams a 200 MB document through the bot with its memory growing by less than 64 MB', {
    timeout: 90_000,
  }, async () => {
    const pid = bot?.pid as number;
    const admin = fake.user(501, 'Ada', 'ada');
    const chat = fake.privateChat(admin);
    // A small upload first, as a bot that has been serving for a while has done: what is measured
    // next is what the big one adds, not the first use of the code paths.
    fake.sendFile(
      admin,
      chat,
      { name: 'warm-up.mp4', content: randomBytes(MB), mimeType: 'video/mp4' },
      '/media upload',
    );
    await waitFor(() => fake.botMessages(chat.id).find((m) => /Uploaded warm-up/.test(m.text)), 30_000, 50);
    const baseline = memoryOf(pid).rss;
    // Reset the kernel's peak-RSS mark to now, so VmHWM is the peak of the upload alone.
    let peak = baseline;
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      // not allowed here: the sampled maximum below is the measure
    }
    const sampler = setInterval(() => {
      peak = Math.max(peak, memoryOf(pid).rss);
    }, 25);
    const { message } = fake.sendFile(
      admin,
      chat,
      { name: 'big-upload.mp4', size: SIZE, mimeType: 'video/mp4' },
      '/media upload',
    );
    (proxy as LocalBotApi).bigFileId = message?.document?.fileId as string;
    const final = await waitFor(
      () => fake.botMessages(chat.id).find((m) => /Uploaded big-upload/.test(m.text)),
      80_000,
      100,
    );
    clearInterval(sampler);
    peak = Math.max(peak, memoryOf(pid).peak, memoryOf(pid).rss);
    const growth = peak - baseline;
    const download = proxy?.downloads.at(-1);
    expect(download?.sent).toBe(SIZE);
    expect(growth, `peak RSS grew by ${(growth / MB).toFixed(1)} MB`).toBeLessThan(64 * MB);

    const code = /File code:?\s*([a-z0-9]{12})/.exec(final.text)?.[1] as string;
    expect(code).toMatch(/^[a-z0-9]{12}$/);
    expect(final.text).toContain('200.0 MB');
    expect(final.text).toContain(`${media.apiUrl}/d/${code}`);
    expect(final.text).toContain(`${media.apiUrl}/e/${code}`);
    const labels = (final.replyMarkup?.inline_keyboard ?? []).flat().map((b) => b.text);
    expect(labels).toEqual(expect.arrayContaining(['Rename', 'Move to folder', 'Player link']));
    expect(final.versions.length).toBeGreaterThan(1);
    expect(final.versions[0]?.text).toContain('Uploading big-upload.mp4');

    const stored = media.controls.file(code);
    expect(stored?.size).toBe(SIZE);
    expect(await sha256Of(stored?.path as string)).toBe(download?.sha256);
    fake.assertClean();
  });
});
