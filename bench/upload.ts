/**
 * Benchmark 3 — streaming upload: a 1 GiB file from the Telegram fake's file endpoint to the sandbox
 * media upload server through Deckhand, versus `curl` piping the same bytes between the same two
 * endpoints (throughput ≥ 0.8× curl, Deckhand's peak RSS ≤ 150 MB).
 *
 * Set-up, as test/e2e/telegram-media.test.ts runs it: the real CLI (`deckhand start`, compiled
 * dist/) in its own process long-polls the Telegram fake through a small proxy playing a local Bot API
 * server (no 20 MB download limit). The proxy answers `getFile` for the big document and serves its
 * bytes from the deterministic sample generator, so the file exists nowhere but on the media
 * emulator's disk. Deckhand runs as deployed, with real services and no emulator inside: the media
 * emulator runs in this process, the tool platform in `deckhand sandbox` as its own process (as
 * the emulators run in their own process when a chat platform is configured), so the measured Deckhand
 * process is Deckhand alone.
 *
 * Deckhand: a user sends the document with `/media upload`; the transfer time runs from the proxy
 * receiving the download request to the emulator storing the complete file. curl: the same download
 * piped into a streaming multipart upload (`-F file=@/dev/stdin`, chunked) to an upload server
 * address asked for beforehand; timed from start to exit. Both stored files are checked (size and
 * sha256 against the generator's). Deckhand's peak RSS is VmHWM after resetting it (clear_refs 5)
 * once a small warm-up upload went through, with a sampled maximum as fallback.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MediaSandbox, sampleSha256, startMediaSandbox } from '@deckhand/sandbox/media';
import type { StoredFile } from '@deckhand/sandbox/media/state';
import { request } from 'undici';
import { startFakeTelegram } from '../test/fakes/telegram';
import { startLocalBotApi } from '../test/fakes/telegram-local-api';
import { ensureBuilt } from '../test/support/build';
import { memoryOf } from '../test/support/process-memory';
import type { BenchContext, Benchmark } from './lib/context';
import { type Child, deployedNodeFlags, ROOT, spawnChild } from './lib/processes';
import { type BenchResult, type Figure, infoFigure, limitFigure } from './lib/results';
import { type SandboxProcess, startSandboxProcess } from './lib/sandbox-process';
import { maxOf, percentile, round, sleep, until } from './lib/stats';

const MB = 1024 * 1024;
const SEED = 'bench-upload';
const RSS_LIMIT_MB = 150;
const THROUGHPUT_RATIO = 0.8;
const ADMIN_ID = 501;

/** The middle value (nearest rank). */
const median = (values: readonly number[]) => percentile(values, 50);

/** Files the media issue adds; the benchmark needs them in the tree. */
const NEEDS = [
  'packages/sandbox/src/media/index.ts',
  'src/services/media/index.ts',
  'src/queue/upload-processor.ts',
];

/** The stored file titled `title` in the seeded account, once complete. */
function storedFile(media: MediaSandbox, title: string): StoredFile | undefined {
  for (const file of media.controls.account()?.files.values() ?? []) if (file.title === title) return file;
  return undefined;
}

/** One curl pipe: download | streaming multipart upload; resolves with its wall time in ms. */
async function curlPipe(downloadUrl: string, uploadUrl: string, apiKey: string, name: string) {
  const script = `set -o pipefail 2>/dev/null; curl -sS --fail "$DOWNLOAD" | curl -sS --fail -F "api_key=$KEY" -F "file=@/dev/stdin;filename=${name}" "$UPLOAD"`;
  const started = Date.now();
  const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      env: { PATH: process.env.PATH ?? '', DOWNLOAD: downloadUrl, UPLOAD: uploadUrl, KEY: apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.once('error', reject);
    child.once('close', (exitCode) => resolve({ code: exitCode, out }));
  });
  const ms = Date.now() - started;
  if (code !== 0) throw new Error(`curl pipe exited with ${code}: ${out.slice(0, 500)}`);
  return { ms, out };
}

async function runUpload(ctx: BenchContext): Promise<BenchResult> {
  const started = Date.now();
  const size = ctx.quick ? 32 * MB : 1024 * MB;
  const params = { fileBytes: size, seed: SEED };
  const missing = NEEDS.filter((path) => !existsSync(join(ROOT, path)));
  if (missing.length > 0) {
    return {
      id: 'upload',
      title: '3. Streaming upload',
      status: 'not run',
      reason: `the media issue has not landed (${missing.join(', ')} missing)`,
      figures: [],
      params,
      notes: [],
      seconds: 0,
    };
  }
  const notes: string[] = [];
  ensureBuilt();
  const expectedSha = sampleSha256(size, SEED);
  const fake = await startFakeTelegram();
  const proxy = await startLocalBotApi(fake, { size, seed: SEED, bigPath: 'documents/bench-upload.bin' });
  // The emulator stores uploads in memory (tmpfs) where there is one, so the disk's write-back does
  // not set the pace of either side; each stored file is removed once checked.
  const mediaDir = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/deckhand-bench-upload-') : ctx.dir;
  const media = await startMediaSandbox({ dataDir: mediaDir, stepMs: 20 });
  let deckhand: Child | undefined;
  let toolhost: SandboxProcess | undefined;
  try {
    const rounds = ctx.quick ? 1 : 3;
    const downloadUrl = `${proxy.url}/file/bot${fake.token}/${proxy.bigPath}`;
    const checkStored = (title: string, who: string): StoredFile => {
      const file = storedFile(media, title);
      if (!file) throw new Error(`${who}'s upload ${title} was not stored`);
      if (file.size !== size || file.sha256 !== expectedSha)
        throw new Error(
          `${who} stored ${file.size} bytes with sha256 ${file.sha256}; expected ${size} bytes`,
        );
      return file;
    };

    // ---- Baseline: curl piping the file endpoint into a fresh upload server. ----
    const curlRound = async (index: number): Promise<number> => {
      const server = await request(
        `${media.apiUrl}/api/upload/server?key=${encodeURIComponent(media.apiKey)}`,
      );
      const serverUrl = ((await server.body.json()) as { result?: string }).result;
      if (!serverUrl) throw new Error('the media emulator gave no upload server');
      ctx.log(`upload: curl pipe, ${size / MB} MiB (round ${index + 1}/${rounds})`);
      const curl = await curlPipe(downloadUrl, serverUrl, media.apiKey, `curl-upload-${index}.bin`);
      if (!storedFile(media, `curl-upload-${index}`))
        throw new Error(`curl's upload was not stored: ${curl.out.slice(0, 500)}`);
      checkStored(`curl-upload-${index}`, 'curl');
      return curl.ms;
    };

    // ---- Deckhand: `deckhand start` long-polling the fake through the proxy. ----
    toolhost = await startSandboxProcess(join(ctx.dir, 'sandbox'));
    deckhand = spawnChild([join(ROOT, 'bin', 'deckhand.mjs'), 'start'], {
      nodeFlags: deployedNodeFlags(),
      env: {
        DECKHAND_RUN: 'dist',
        TOOLHOST_URL: toolhost.env.TOOLHOST_URL as string,
        TOOLHOST_INTERNAL_URL: toolhost.env.TOOLHOST_INTERNAL_URL as string,
        TOOLHOST_CERT_DIR: toolhost.env.TOOLHOST_CERT_DIR as string,
        TOOLHOST_CA_FILE: toolhost.env.TOOLHOST_CA_FILE as string,
        REDIS_URL: ctx.redisUrl,
        REDIS_KEY_PREFIX: `bench-upload-${randomBytes(4).toString('hex')}:`,
        DATA_DIR: ctx.dir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        TELEGRAM_BOT_TOKEN: fake.token,
        TELEGRAM_API_ROOT: proxy.url,
        MEDIA_API_URL: media.apiUrl,
        MEDIA_API_KEY: media.apiKey,
        ADMINS: `telegram:${ADMIN_ID}`,
      },
      ...(ctx.profileDir ? { cpuProfDir: ctx.profileDir } : {}),
    });
    const bot = deckhand;
    await bot.waitForLine('Deckhand is serving telegram', 60_000);
    const pid = bot.process.pid;
    const admin = fake.user(ADMIN_ID, 'Ada', 'ada');
    const chat = fake.privateChat(admin);
    // A small upload first: what is measured next is the big one, not the first use of the code.
    fake.sendFile(
      admin,
      chat,
      { name: 'warm-up.mp4', content: randomBytes(MB), mimeType: 'video/mp4' },
      '/media upload',
    );
    if (!(await until(() => fake.botMessages(chat.id).some((m) => /Uploaded warm-up/.test(m.text)), 30_000)))
      throw new Error(`the warm-up upload did not finish:\n${bot.output().slice(-2000)}`);

    const deckhandRound = async (index: number): Promise<number> => {
      ctx.log(`upload: Deckhand, ${size / MB} MiB (round ${index + 1}/${rounds})`);
      const title = `deckhand-upload-${index}`;
      const downloadsBefore = proxy.downloads.length;
      const { message } = fake.sendFile(
        admin,
        chat,
        { name: `${title}.mp4`, size, mimeType: 'video/mp4' },
        '/media upload',
      );
      proxy.bigFileId = message?.document?.fileId as string;
      let storedAt = 0;
      const stored = await until(
        () => {
          if (storedFile(media, title) === undefined) return false;
          storedAt = Date.now();
          return true;
        },
        ctx.quick ? 60_000 : 600_000,
        10,
      );
      if (!stored) throw new Error(`Deckhand's upload was not stored in time:\n${bot.output().slice(-2000)}`);
      const card = await until(
        () => fake.botMessages(chat.id).some((m) => m.text.includes(`Uploaded ${title}`)),
        30_000,
      );
      if (!card)
        notes.push(`the "Uploaded" card of ${title} did not show within 30 s of the file being stored`);
      const download = proxy.downloads[downloadsBefore];
      if (!download) throw new Error('Deckhand never downloaded the file');
      checkStored(title, 'Deckhand');
      return storedAt - download.startedAt;
    };

    const before = memoryOf(pid);
    let hwmReset = true;
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      hwmReset = false;
    }
    const samples: number[] = [before.rss];
    const sampler = setInterval(() => samples.push(memoryOf(pid).rss), 25);
    const cpuBefore = bot.cpuSeconds();
    const curlMs: number[] = [];
    const deckhandMs: number[] = [];
    try {
      // Alternating rounds, so a slow spell of the machine does not land on one side only.
      for (let index = 0; index < rounds; index++) {
        curlMs.push(await curlRound(index));
        deckhandMs.push(await deckhandRound(index));
      }
    } finally {
      clearInterval(sampler);
    }
    const after = memoryOf(pid);
    samples.push(after.rss);
    const cpuSeconds = bot.cpuSeconds() - cpuBefore;
    const mbps = (ms: number) => size / MB / (ms / 1000);
    const curlMBps = mbps(median(curlMs));
    const deckhandMBps = mbps(median(deckhandMs));
    const sampledPeak = maxOf(samples);
    const peak = hwmReset && Number.isFinite(after.peak) ? Math.max(after.peak, sampledPeak) : sampledPeak;
    const peakMB = peak / MB;
    const ratio = deckhandMBps / curlMBps;
    const list = (values: number[]) => values.map((ms) => `${round(mbps(ms), 1)}`).join(', ');
    notes.push(
      `${round(size / MB)} MiB × ${rounds} round(s), median reported: curl pipe ${list(curlMs)} MB/s; Deckhand ${list(deckhandMs)} MB/s (download request → file stored; ${round(cpuSeconds, 1)} CPU s in all); every stored file matches the source's sha256.`,
      `Deckhand RSS ${round(before.rss / MB, 1)} MB idle before the big uploads, peak ${round(peakMB, 1)} MB during them (${hwmReset ? 'VmHWM after clear_refs, and sampled every 25 ms' : 'clear_refs not allowed: sampled every 25 ms'}); MB = MiB (2^20 bytes).`,
    );
    const throughput: Figure = {
      metric: 'throughput (median)',
      value: deckhandMBps,
      baseline: curlMBps,
      baselineLabel: 'curl | curl -F',
      ratio,
      target: `≥ ${THROUGHPUT_RATIO}`,
      met: ratio >= THROUGHPUT_RATIO,
      unit: 'MB/s',
    };
    return {
      id: 'upload',
      title: '3. Streaming upload',
      status: 'ran',
      figures: [
        throughput,
        limitFigure('Deckhand peak RSS', peakMB, RSS_LIMIT_MB, 'MB'),
        infoFigure('Deckhand RSS growth over the uploads', (peak - before.rss) / MB, 'MB'),
        infoFigure('Deckhand CPU per GiB', (cpuSeconds / (size * rounds)) * 1024 * MB, 's'),
      ],
      params: { ...params, rounds, curlMs: curlMs.join(','), deckhandMs: deckhandMs.join(',') },
      notes,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await deckhand?.stop();
    await toolhost?.child.stop();
    await proxy.close();
    await fake.close();
    await media.close();
    if (mediaDir !== ctx.dir) rmSync(mediaDir, { recursive: true, force: true });
    await sleep(0);
  }
}

/** The streaming upload benchmark. */
export const uploadBenchmark: Benchmark = { id: 'upload', title: '3. Streaming upload', run: runUpload };
