/**
 * What start-up says about the sandbox besides which services it emulates: that its time runs
 * fast, and the media host's address (an OS-chosen port, which the media guide asks users to type
 * in `/media upload-url <sandbox>/samples/…`). The same lines are kept in Redis while the process
 * runs, so `deckhand status` shows them too.
 */
import { JOB_STEPS } from '@deckhand/sandbox';
import type { App } from './app';

export { publishSandboxNotes, readSandboxNotes, readSandboxToolhost } from './sandbox-notes-store';

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

/** The lines to print at start-up (none when nothing is emulated). */
export function sandboxNotes(app: Pick<App, 'emulators'>, stepMs: number): string[] {
  const { toolhost, media } = app.emulators;
  return emulatorNotes({ toolhost: Boolean(toolhost), ...(media ? { mediaUrl: media.apiUrl } : {}) }, stepMs);
}

/**
 * The same lines for emulators wherever they run (in-process, or in their own process for
 * `start --sandbox`): whether the tool platform is emulated, and the media emulator's address.
 */
export function emulatorNotes(emulated: { toolhost: boolean; mediaUrl?: string }, stepMs: number): string[] {
  const notes: string[] = [];
  if (emulated.toolhost) {
    notes.push(
      `Sandbox time is compressed: a build or deployment step takes ${seconds(stepMs)} (SANDBOX_STEP_MS), and scheduled jobs run every ${seconds(stepMs * JOB_STEPS.schedulePeriod)} whatever their schedule.`,
    );
  }
  if (emulated.mediaUrl) {
    const url = emulated.mediaUrl;
    notes.push(
      `Sandbox media host: ${url} (sample files for /media upload-url: ${url}/samples/talk.mp4?size=5000000).`,
    );
  }
  return notes;
}
