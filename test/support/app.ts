import { loadConfig } from '../../src/config';
import type { CardSurface } from '../../src/core/card-surface';
import type { Invocation, MessageHandle } from '../../src/core/command';
import type { FormSpec } from '../../src/core/forms';
import type { Card } from '../../src/core/reply';
import { silentLogger } from '../../src/log';
import { type App, createApp } from '../../src/wiring';
import { invocationAt } from './invocation';
import { testPrefix, testRedisUrl } from './redis';
import { waitFor } from './wait';

/** What a test conversation saw. */
export interface Transcript {
  posted: Card[];
  updates: { handle: MessageHandle; card: Card }[];
  forms: { formId: string; form: FormSpec }[];
}

/** A core on the sandbox with a recording surface, for command tests through the real runner. */
export interface TestApp {
  app: App;
  /**
   * Runs a command line as `user` in a channel (or privately) and returns what the bot answered;
   * `key` is the platform delivery's key (the same for each attempt at one delivery).
   */
  say(text: string, options?: { user?: string; private?: boolean; key?: string }): Promise<Card[]>;
  /** Presses a button. */
  press(actionId: string, options?: { user?: string; private?: boolean }): Promise<Card[]>;
  /** Submits a form. */
  submit(formId: string, values: Record<string, string>, options?: { user?: string }): Promise<Card[]>;
  transcript: Transcript;
  close(): Promise<void>;
}

/** Starts the core on the sandbox with `admin` (slack:UADMIN) and a maintainer of mytool (slack:UMAINT). */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: testPrefix(),
    SANDBOX_STEP_MS: '20',
    ADMINS: 'slack:UADMIN',
    TOOL_MAINTAINERS: 'mytool=slack:UMAINT',
    ...env,
  });
  const app = await createApp({ config, logger: silentLogger, sandbox: true });
  app.startWorkers();
  const transcript: Transcript = { posted: [], updates: [], forms: [] };
  let counter = 0;
  const surfaceFor = (out: Card[]): CardSurface => ({
    async reply(card) {
      out.push(card);
      transcript.posted.push(card);
      counter += 1;
      return { platform: 'slack', conversationId: 'slack:T1:C1', ref: { ts: String(counter) } };
    },
    async update(handle, card) {
      transcript.updates.push({ handle, card });
    },
    async openForm(formId, form) {
      transcript.forms.push({ formId, form });
    },
  });
  app.messengers.register('slack', {
    async post(_id, card) {
      transcript.posted.push(card);
      counter += 1;
      return { platform: 'slack', conversationId: 'slack:T1:C1', ref: { ts: String(counter) } };
    },
    async update(handle, card) {
      transcript.updates.push({ handle, card });
    },
  });
  const invocation = (user: string, isPrivate: boolean): Invocation =>
    invocationAt(
      { platform: 'slack', workspace: 'T1', channel: isPrivate ? 'D1' : 'C1', private: isPrivate },
      user,
    );
  return {
    app,
    transcript,
    async say(text, options = {}) {
      const out: Card[] = [];
      const from = invocation(options.user ?? 'UADMIN', options.private ?? false);
      await app.runner.handleText(text, options.key ? { ...from, key: options.key } : from, surfaceFor(out));
      return out;
    },
    async press(actionId, options = {}) {
      const out: Card[] = [];
      await app.runner.handleAction(
        actionId,
        invocation(options.user ?? 'UADMIN', options.private ?? false),
        surfaceFor(out),
      );
      return out;
    },
    async submit(formId, values, options = {}) {
      const out: Card[] = [];
      await app.runner.handleForm(
        formId,
        values,
        invocation(options.user ?? 'UADMIN', false),
        surfaceFor(out),
      );
      return out;
    },
    close: () => app.close(),
  };
}

/** The id of the button labelled `label` on a card. */
export function button(card: Card | undefined, label: string): string {
  const found = card?.buttons?.find((b) => b.label === label);
  if (!found) throw new Error(`no button "${label}" on card ${JSON.stringify(card)}`);
  return found.actionId;
}

/**
 * Waits until the work a test started has fully ended: no job waiting, delayed or running on the
 * watch, notify, deliver, tail, upload or migration queues (`watches.activeCount()` counts them all),
 * so announcements are posted, not only decided.
 */
export async function settled(app: TestApp['app'], timeoutMs = 30_000): Promise<void> {
  await waitFor(async () => (await app.services.watches.activeCount()) === 0, timeoutMs);
}
