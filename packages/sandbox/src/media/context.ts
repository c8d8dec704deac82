/** Shared state and settings of one media host emulator. */
import { SandboxTimers } from '../toolhost/context';
import type { MediaAccount } from './state';

/** Test and demo knobs of the emulator. */
export interface MediaSandboxSettings {
  /** Duration of one lifecycle step (pending → working, encoding) in ms. */
  stepMs: number;
  /** Requests per second and key before `Too Many Requests` (0: no limit). The real host: 10. */
  rateLimitPerSecond: number;
  /** HTTP status of rate-limit answers: 200 with the error in the body (default), or 429. */
  rateLimitHttpStatus: 200 | 429;
  /** How long an upload server address stays valid, in ms. */
  uploadSlotTtlMs: number;
}

/** Hono environment of the emulator. */
export interface MediaEnv {
  Variables: { account: MediaAccount };
}

/** The emulator's state. */
export interface MediaSandboxContext {
  settings: MediaSandboxSettings;
  /** Accounts by API key. */
  accounts: Map<string, MediaAccount>;
  /** Where uploaded and transferred bytes are stored. */
  filesDir: string;
  /** Origin of the emulator (`http://127.0.0.1:PORT`), known once it listens; also the player host. */
  origin: string;
  /** Upload server addresses handed out: slot → expiry (unix ms). */
  uploadSlots: Map<string, number>;
  /** Number of the next upload slot. */
  nextSlot: number;
  /** Request times per key within the last second (rate limit). */
  recent: Map<string, number[]>;
  /** Forced rate-limit answers still to give (tests). */
  forcedRateLimits: number;
  timers: SandboxTimers;
}

/** A fresh context. */
export function createMediaContext(
  filesDir: string,
  settings: Partial<MediaSandboxSettings> = {},
): MediaSandboxContext {
  return {
    settings: {
      stepMs: settings.stepMs ?? 1500,
      rateLimitPerSecond: settings.rateLimitPerSecond ?? 10,
      rateLimitHttpStatus: settings.rateLimitHttpStatus ?? 200,
      uploadSlotTtlMs: settings.uploadSlotTtlMs ?? 3600_000,
    },
    accounts: new Map(),
    filesDir,
    origin: 'http://127.0.0.1',
    uploadSlots: new Map(),
    nextSlot: 1,
    recent: new Map(),
    forcedRateLimits: 0,
    timers: new SandboxTimers(),
  };
}
