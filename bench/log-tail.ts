/**
 * Benchmark 5 — log tail. A job printing 5,000 lines/s (appended to the sandbox's log store of the
 * running job `mytool/web`) for 60 s, followed with `/logs mytool web --follow` into a Slack
 * conversation by a real Deckhand process. Measured at the fake Slack: how often the message is edited
 * (target ≤ 1 edit per 2 s), how long a line takes from being printed to being in the chat (p95 ≤ 2.5 s;
 * the baseline is the lower bound that edits every 2 s imply, 0.95 × 2 s), and whether the transcript
 * attached at the end has every line once and in order.
 */
import { startToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { logStoreOf } from '@deckhand/sandbox/toolhost/logs-store';
import { FakeSlack } from '../test/fakes/slack';
import type { BenchContext, Benchmark } from './lib/context';
import { startSlackDeckhand } from './lib/deckhand-slack';
import { atLeastFigure, type BenchResult, type Figure, infoFigure, limitFigure } from './lib/results';
import { maxOf, percentile, round, sleep, until } from './lib/stats';

const CHANNEL = 'C0TAIL001';
const EDIT_MS = 2000;
/** Arrival times at the fake carry a few ms of scheduling noise; an edit gap this much short of 2 s still counts as 2 s. */
const GAP_TOLERANCE_MS = 50;
const ADMIN = { id: 'UADMIN', name: 'ada' };

/** The highest `bench-line N` in a text, or -1. */
function highestLine(text: string): number {
  let max = -1;
  for (const match of text.matchAll(/bench-line (\d+)/g)) max = Math.max(max, Number(match[1]));
  return max;
}

async function runTail(ctx: BenchContext): Promise<BenchResult> {
  const started = Date.now();
  const rate = 5000;
  const seconds = ctx.quick ? 2 : 60;
  // Slow steps: the job's own output (a few access-log lines per step) stays out of the way.
  const sandbox = await startToolhostSandbox({ stepMs: 60_000 });
  const fake = await FakeSlack.start();
  const store = logStoreOf(sandbox.ctx);
  const print = (message: string, time = Date.now()) =>
    store.append('mytool', 'web', { pod: 'web-7d9f-bench', container: 'web', message, time });
  const deckhand = await startSlackDeckhand(ctx, fake, sandbox, 'tail', { TAIL_EDIT_MS: String(EDIT_MS) });
  const notes: string[] = [];
  try {
    const cpuBefore = deckhand.child.cpuSeconds();
    await deckhand.driver.command(ADMIN, CHANNEL, '/logs mytool web --follow');
    const card = () =>
      fake.channelMessages(CHANNEL).find((m) => JSON.stringify(m.attachments).includes('Stop'));
    if (!(await until(() => card() !== undefined, 20_000)))
      throw new Error('the live log card was not posted');
    const message = card()!;
    // The stream is open once a probe line shows on the card.
    const probe = setInterval(() => print('bench-probe'), 200);
    const open = await until(() => JSON.stringify(message.attachments).includes('bench-probe'), 20_000);
    clearInterval(probe);
    if (!open) throw new Error('the tail never showed a printed line');
    const editsBefore = message.versions.length;

    ctx.log(`tail: printing ${rate} lines/s for ${seconds} s`);
    const printedAt: number[] = [];
    const t0 = Date.now();
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const now = Date.now();
        const due = Math.min(rate * seconds, Math.floor((rate * (now - t0)) / 1000));
        while (printedAt.length < due) {
          print(`bench-line ${printedAt.length}`, now);
          printedAt.push(now);
        }
        if (printedAt.length >= rate * seconds) {
          clearInterval(timer);
          resolve();
        }
      }, 10);
    });
    const total = printedAt.length;
    const last = total - 1;
    await until(() => highestLine(JSON.stringify(message.attachments)) >= last, 15_000, 100);
    const clicked = await deckhand.driver.click(ADMIN, message, 'Stop');
    if (clicked.status !== 200) notes.push(`Stop click answered ${clicked.status}`);
    const transcriptFile = () =>
      fake.uploads.find((u) => u.channel === CHANNEL && u.content.includes('bench-line'));
    await until(() => transcriptFile() !== undefined, 60_000, 200);
    const cpuSeconds = deckhand.child.cpuSeconds() - cpuBefore;

    const live = message.versions.slice(editsBefore);
    const withLines = live.map((v) => ({ at: v.at, highest: highestLine(JSON.stringify(v.attachments)) }));
    const gaps = live.slice(1).map((v, i) => v.at - (live[i]?.at ?? v.at));
    const minGap = gaps.length > 0 ? -maxOf(gaps.map((g) => -g)) : Number.NaN;
    const latencies: number[] = [];
    let edit = 0;
    for (let line = 0; line < total; line++) {
      while (edit < withLines.length && (withLines[edit]?.highest ?? -1) < line) edit++;
      const shown = withLines[edit];
      latencies.push(shown ? shown.at - (printedAt[line] as number) : Number.POSITIVE_INFINITY);
    }
    const transcript = transcriptFile()?.content ?? '';
    const seen = [...transcript.matchAll(/bench-line (\d+)/g)].map((m) => Number(m[1]));
    let wrong = Math.abs(seen.length - total);
    for (let i = 0; i < Math.min(seen.length, total); i++) if (seen[i] !== i) wrong++;
    const p95 = percentile(latencies, 95);
    const lowerBound = 0.95 * EDIT_MS;
    const liveSeconds = ((live.at(-1)?.at ?? t0) - (live[0]?.at ?? t0)) / 1000;
    notes.push(
      `${total} lines in ${round((Date.now() - t0) / 1000, 1)} s; ${live.length} edits (${gaps.length} gaps, shortest ${round(minGap)} ms, ${round(gaps.length / Math.max(1, liveSeconds / 2), 2)} per 2 s on average); line-to-chat p50 ${round(percentile(latencies, 50))} ms, p95 ${round(p95)} ms, max ${round(maxOf(latencies))} ms; transcript ${seen.length} lines; Deckhand used ${round(cpuSeconds, 1)} CPU s.`,
    );
    const p95Figure: Figure = {
      metric: 'line-to-chat p95',
      value: p95,
      baseline: lowerBound,
      baselineLabel: 'bound of 1 edit/2 s',
      ratio: p95 / lowerBound,
      target: '≤ 2500 ms',
      met: p95 <= 2500,
      unit: 'ms',
    };
    return {
      id: 'tail',
      title: '5. Log tail',
      status: 'ran',
      figures: [
        atLeastFigure(
          `shortest gap between edits (${GAP_TOLERANCE_MS} ms noise allowed)`,
          minGap,
          EDIT_MS - GAP_TOLERANCE_MS,
          'ms',
        ),
        infoFigure('edits per 2 s (average)', gaps.length / Math.max(1, liveSeconds / 2)),
        p95Figure,
        limitFigure('transcript lines missing, repeated or out of order', wrong, 0),
        infoFigure('Deckhand CPU per 1,000 lines', (cpuSeconds / total) * 1000, 's'),
      ],
      params: { linesPerSecond: rate, seconds, editMs: EDIT_MS },
      notes,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await deckhand.child.stop();
    await fake.close();
    await sandbox.close();
    await sleep(0);
  }
}

/** The log tail benchmark. */
export const logTailBenchmark: Benchmark = { id: 'tail', title: '5. Log tail', run: runTail };
