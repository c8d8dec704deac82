/** The built `deckhand` run as a child process against a fake Telegram. */
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram';
import { ensureBuilt } from './build';
import { useStarted } from './started';

/**
 * Before the file's tests: dist/ up to date ({@link ensureBuilt}) and a fake Telegram for the
 * `deckhand` processes they start, handed to `onStarted`; the fake is closed after them.
 */
export function useBuiltWithTelegram(onStarted: (telegram: FakeTelegram) => void, hookMs = 120_000): void {
  useStarted(
    async () => {
      ensureBuilt();
      return startFakeTelegram();
    },
    onStarted,
    hookMs,
  );
}
