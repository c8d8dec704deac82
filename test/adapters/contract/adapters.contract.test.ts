/**
 * The adapter contract: the same cases against every platform (each-platform.ts), each through its
 * real adapter and its fake (`test/fakes/`) or, for IRC, a real network. A platform that genuinely
 * cannot do something declares it in its driver (`cannot`), and the case asserts the documented
 * alternative.
 */
import { Job } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { STATS_CHART } from '../../../commands/media/account';
import type { MessageHandle } from '../../../src/core/command';
import type { WatchEvent } from '../../../src/core/watch';
import { deliverJob } from '../../../src/queue/notify-processor';
import { deliverQueueOf } from '../../../src/queue/queues';
import { pngSize } from '../../fakes/png';
import { useStarted } from '../../support/started';
import { waitFor } from '../../support/wait';
import type { ContractDriver } from './driver';
import { DRIVER_HOOK_MS, DRIVERS, readable } from './each-platform';
import { pressesOf } from './press-command';

/** Text from outside (a log line, a tool name, a commit message) that must stay plain text. */
const UNTRUSTED = '@everyone <!channel> <@U0123> <b>bold</b> [click](https://evil.example) & done';

describe.each(DRIVERS)('$name adapter contract', ({ start }) => {
  let d: ContractDriver;

  useStarted(
    start,
    (started) => {
      d = started;
    },
    DRIVER_HOOK_MS,
  );
  afterEach(() => {
    expect(d.violations()).toEqual([]);
  });

  const post = (card: Parameters<ContractDriver['app']['publisher']['post']>[1]) =>
    d.app.publisher.post(d.conversationId, card) as Promise<MessageHandle>;

  /** The messages posted since `before` messages were there. */
  const since = async (before: number) => (await d.shown()).slice(before);

  it('keeps every message within the platform limit and loses nothing of a long text', async () => {
    const before = (await d.shown()).length;
    const text = `${'deployment log line\n'.repeat(1200)}TAIL-MARKER`;
    await post({ title: 'A long card', text, status: 'info' });
    const shown = await waitFor(async () => {
      const now = await since(before);
      return now.length > 0 ? now : undefined;
    });
    for (const message of shown)
      for (const part of message.lines ?? [message.text])
        expect(part.length).toBeLessThanOrEqual(d.maxMessageChars);
    // Where a message is a summary, the rest is on the card's page it links to.
    const everything = shown.flatMap((m) => [readable(m), ...m.files.map((f) => f.content)]).join('\n');
    expect(everything).toContain('deployment log line');
    expect(everything).toContain('TAIL-MARKER');
  });

  it('shows untrusted text as written, with no ping, link or markup taking effect', async () => {
    // The platform's own control characters (IRC's), where it has some, come with it.
    await post({ text: `${UNTRUSTED}${d.controls ?? ''}`, fields: [{ label: 'commit', value: 'fix' }] });
    // The check reads the message it judges: the text is there, as written (positive control).
    expect(await d.inertProblems(UNTRUSTED)).toEqual([]);
    expect((await d.shown()).at(-1)?.text).toContain('@everyone');
  });

  it('edits a card in place: the same message shows the new version', async () => {
    const handle = await post({ title: 'Build of mytool', text: 'Running…', status: 'progress' });
    if (d.cannot.edits) {
      // The documented alternative: the card's newest line shows the new state; its first stays as posted.
      const id = messageOf(handle);
      const count = (await d.shown()).length;
      await d.app.publisher.update(handle, {
        title: 'Build of mytool',
        text: 'Finished OK',
        status: 'success',
      });
      const shown = await waitFor(async () => {
        const now = await d.shown();
        return now.length > count ? now : undefined;
      });
      const newest = shown.at(-1);
      expect(newest?.id).toBe(id);
      expect(newest?.text).toContain('Finished OK');
      expect(newest?.text).not.toContain('Running…');
      const first = shown.find((m) => m.id === id);
      expect(first?.text).toContain('Running…');
      expect(shown.filter((m) => m.id === id)).toHaveLength(2);
      expect(shown.every((m) => m.edits === 0)).toBe(true);
      return;
    }
    const count = (await d.shown()).length;
    await d.app.publisher.update(handle, {
      title: 'Build of mytool',
      text: 'Finished OK',
      status: 'success',
    });
    const shown = await d.shown();
    expect(shown).toHaveLength(count);
    const edited = await waitFor(async () =>
      (await d.shown()).find((m) => m.text.includes('Finished OK') && m.edits > 0),
    );
    expect(edited.text).not.toContain('Running…');
  });

  it('attaches a file to a card, whole', async () => {
    const before = (await d.shown()).length;
    await post({
      text: 'Transcript attached.',
      attachments: [{ filename: 'transcript.txt', content: 'first line\nFILE-MARKER last line\n' }],
    });
    const message = await waitFor(async () => (await since(before)).find((m) => m.files.length > 0));
    expect(message.text).toContain('Transcript attached.');
    expect(message.files[0]?.name).toMatch(/transcript\.txt$/);
    expect(message.files[0]?.content).toContain('FILE-MARKER last line');
  });

  it('posts /media stats with its chart as a valid PNG of the chart’s size', async () => {
    const before = (await d.pictures()).length;
    const handle = await post({
      text: 'Statistics',
      actions: [{ label: 'Stats', command: 'media stats', args: {} }],
    });
    await d.press(messageOf(handle), 'Stats', 'admin');
    const pictures = await waitFor(async () => {
      const now = (await d.pictures()).slice(before);
      return now.length > 0 ? now : undefined;
    });
    expect(pictures).toHaveLength(1);
    expect(pngSize(pictures[0]?.data as Buffer)).toEqual(STATS_CHART);
    await waitFor(() => (d.seen().includes('Media stats') ? true : undefined));
  });

  /** The platform message id of a handle (Slack `ts`, the others `message`). */
  const messageOf = (handle: MessageHandle) => (handle.ref.ts ?? handle.ref.message) as string;

  /** Waits until the reply of every run of `tag` is shown (its work is over, nothing left in flight). */
  const repliesShown = (tag: string) =>
    waitFor(() => d.seen().split(`Pressed (${tag}).`).length - 1 >= pressesOf(tag).length);

  it('runs a double click once, and a press by someone else as well', async () => {
    const tag = `double-${d.platform}`;
    const handle = await post({
      text: 'Press me',
      actions: [{ label: 'Press', command: 'contract-press', args: { tag } }],
    });
    const id = messageOf(handle);
    await Promise.all([d.press(id, 'Press', 'admin'), d.press(id, 'Press', 'admin')]);
    await d.press(id, 'Press', 'stranger');
    if (d.cannot.nativeButtons) {
      // The documented alternative: every press is deliberate, and each one runs.
      await waitFor(() => pressesOf(tag).length === 3);
      await repliesShown(tag);
      return;
    }
    // Positive control: the later press by someone else ran, so the presses before it were handled.
    await waitFor(() => pressesOf(tag).includes(d.userId('stranger')));
    await waitFor(() => pressesOf(tag).includes(d.userId('admin')));
    await d.idle();
    await repliesShown(tag);
    expect(pressesOf(tag).filter((user) => user === d.userId('admin'))).toHaveLength(1);
  });

  it('refuses an expired button with a message, and runs a live one', async () => {
    const tag = `expiry-${d.platform}`;
    const handle = await post({
      text: 'A card with an old and a live button',
      actions: [
        { label: 'Old', command: 'contract-press', args: { tag }, ttlSeconds: 0 },
        { label: 'Live', command: 'contract-press', args: { tag: `${tag}-live` } },
      ],
    });
    const id = messageOf(handle);
    // The Old button expired when it was stored (ttl 0): press it once the clock has moved past that.
    const posted = Date.now();
    await waitFor(() => Date.now() > posted);
    await d.press(id, 'Old', 'admin');
    await waitFor(() => d.seen().includes('This button has expired.'));
    await d.press(id, 'Live', 'admin');
    await waitFor(() => pressesOf(`${tag}-live`).length === 1);
    await d.idle();
    await repliesShown(`${tag}-live`);
    expect(pressesOf(tag)).toEqual([]);
  });

  it('asks a form and runs its command with the answer of the person who filled it in', async () => {
    const tag = `form-${d.platform}`;
    const handle = await post({
      text: 'A card whose button asks for an answer',
      actions: [{ label: 'Fill', command: 'contract-form', args: { tag } }],
    });
    await d.press(messageOf(handle), 'Fill', 'admin');
    await d.answerForm('admin', 'forty-two');
    await waitFor(() => pressesOf(tag).includes('forty-two'));
    await d.idle();
    await repliesShown(tag);
    expect(pressesOf(tag)).toEqual(['forty-two']);
  });

  it('waits out a rate limit and posts the card exactly once', async () => {
    const before = (await d.shown()).length;
    if (d.cannot.rateLimits) {
      // The documented alternative: no limit to wait for; a burst is shown whole and in order.
      for (let i = 0; i < 20; i += 1) await post({ text: `burst ${i}` });
      // Where posting is queued and paced (IRC), shown() is what arrived once the queue is through.
      const texts = (await since(before)).map((m) => m.text);
      expect(texts).toHaveLength(20);
      for (const [i, text] of texts.entries()) expect(text).toContain(`burst ${i}`);
      return;
    }
    const attempts = d.postAttempts('Posted after the rate limit');
    d.rateLimitNextPost();
    await post({ text: 'Posted after the rate limit' });
    const posted = (await since(before)).filter((m) => m.text.includes('Posted after the rate limit'));
    expect(posted).toHaveLength(1);
    // The 429 was answered (one refused attempt) and the same post sent again once.
    expect(d.postAttempts('Posted after the rate limit') - attempts).toBe(2);
  });

  it('threads a deployment’s announcements (--thread): first posted, later ones in its thread, the first edited', async () => {
    await d.app.services.subscriptions.put({
      conversationId: d.conversationId,
      platform: d.platform,
      tool: 'threadtool',
      kinds: ['deploys'],
      failuresOnly: false,
      changesOnly: false,
      thread: true,
      createdBy: `${d.platform}:contract`,
    });
    const id = `thread-${d.platform}-${Date.now()}`;
    const event = (from: string, to: string, outcome?: WatchEvent['outcome']): WatchEvent => ({
      tool: 'threadtool',
      kind: 'deployment',
      id,
      from,
      to,
      at: Date.now(),
      detail: `Deployment ${id} is ${to}.`,
      terminal: outcome !== undefined,
      ...(outcome ? { outcome } : {}),
    });
    const queue = d.app.queues[deliverQueueOf(d.platform)];
    const before = (await d.shown()).length;
    const first = deliverJob(event('pending', 'running'), d.conversationId);
    await queue.add(first.name, first.data, first.opts);
    // Telegram's per-group rate (20 messages a minute, waited out by grammY's throttler) may hold these
    // posts back after the cases before: generous waits.
    const parent = await waitFor(
      async () => (await since(before)).find((m) => m.text.includes(`${id} is running`)),
      90_000,
    );
    const second = deliverJob(event('running', 'successful', 'success'), d.conversationId);
    await queue.add(second.name, second.data, second.opts);
    // The parent shows the latest state (edited in place)…
    await waitFor(
      async () => (await d.shown()).find((m) => m.id === parent.id && m.text.includes(`${id} is successful`)),
      90_000,
    );
    if (d.cannot.threads) {
      // The documented alternative: the later event is a message of its own.
      const own = (await since(before)).filter(
        (m) => m.id !== parent.id && m.text.includes(`${id} is successful`),
      );
      expect(own).toHaveLength(1);
      return;
    }
    // …and the later event is in its thread, not at the top of the conversation.
    const replies = await waitFor(async () => {
      const now = await d.threadReplies(parent.id);
      return now.length > 0 ? now : undefined;
    }, 90_000);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.text).toContain(`${id} is successful`);
  }, 240_000);

  it('marks a conversation the bot was removed from broken once, and does not retry', async () => {
    const subscriptions = d.app.services.subscriptions;
    await subscriptions.put({
      conversationId: d.conversationId,
      platform: d.platform,
      tool: 'mytool',
      kinds: ['deploys'],
      failuresOnly: false,
      changesOnly: false,
      createdBy: `${d.platform}:contract`,
    });
    const id = `contract-${Date.now()}`;
    const event: WatchEvent = {
      tool: 'mytool',
      kind: 'deployment',
      id,
      from: 'running',
      to: 'failed',
      at: Date.now(),
      detail: `announcement ${id}`,
      outcome: 'failure',
      terminal: true,
    };
    const job = deliverJob(event, d.conversationId);
    const queue = d.app.queues[deliverQueueOf(d.platform)];
    if (d.cannot.goneConversations) {
      // The documented alternative: the conversation is always there; the announcement lands.
      const before = (await d.shown()).length;
      await queue.add(job.name, job.data, job.opts);
      await waitFor(async () => (await since(before)).length > 0);
      expect((await subscriptions.get(d.conversationId, 'mytool'))?.broken).toBeUndefined();
      return;
    }
    await d.removeBot();
    await queue.add(job.name, job.data, job.opts);
    const broken = await waitFor(async () => (await subscriptions.get(d.conversationId, 'mytool'))?.broken);
    expect(broken).toContain(d.conversationId);
    // The state first, then the job: a job read before it failed would show its attempts of then.
    await waitFor(async () => (await queue.getJobState(job.opts.jobId)) === 'failed');
    const failed = await Job.fromId(queue, job.opts.jobId);
    // Failed for good after one attempt (not delayed for a retry), and the platform was asked once.
    expect(failed?.attemptsMade).toBe(1);
    expect(d.postAttempts(`announcement ${id}`), d.debug?.()).toBe(1);
  });
});
