/**
 * Benchmark 6 — rendering hostile text. A card whose title, text, one field and footer are a
 * 100,000-character word (`a_b*c…`, like a job whose command has no spaces), and one whose
 * text is a 100,000-character line full of `[a](https://x)` links and markdown characters, rendered
 * on every platform (Discord, Slack, Telegram post and edit, terminal) in this process. Each figure
 * is the median time of one render (target < 20 ms), next to the same-run baseline of rendering a
 * normal card on the same platform. For context (not judged, full runs only), discord.js
 * `escapeMarkdown` on a 10,000-character word, the escaper the Discord renderer used before.
 */
import { escapeMarkdown } from 'discord.js';
import { renderCard as renderDiscord } from '../adapters/discord/render';
import { PLAIN, renderCardText } from '../adapters/shell/render';
import { renderCard as renderSlack } from '../adapters/slack/render';
import { renderCard as renderTelegram } from '../adapters/telegram/render';
import type { Card } from '../src/core/reply';
import type { BenchContext, Benchmark } from './lib/context';
import { type BenchResult, type Figure, infoFigure } from './lib/results';
import { maxOf, percentile, round } from './lib/stats';

const TARGET_MS = 20;
const LENGTH = 100_000;

const PLATFORMS: Record<string, (card: Card) => unknown> = {
  discord: (card) => renderDiscord(card),
  slack: (card) => renderSlack(card),
  'telegram post': (card) => renderTelegram(card, 'post'),
  'telegram edit': (card) => renderTelegram(card, 'edit'),
  terminal: (card) => renderCardText(card, PLAIN),
};

const NORMAL: Card = {
  title: 'Job nightly-backup',
  status: 'success',
  text: 'The job **nightly-backup** ran at 02:00 and finished.',
  fields: [
    { label: 'Command', value: './backup.sh --all --to s3://bucket/path_2026', inline: true },
    { label: 'Schedule', value: '0 2 * * *', inline: true },
  ],
  code: { text: Array.from({ length: 20 }, (_, i) => `line ${i}: ok`).join('\n') },
  buttons: [{ label: 'Run now', actionId: 'AbCdEfGhIjKl' }],
  footer: 'tool mytool',
};

function longWord(): Card {
  const word = 'a_b*c'.repeat(LENGTH / 5);
  return {
    title: word,
    text: word,
    fields: [{ label: 'Command', value: word }],
    footer: word,
    status: 'info',
  };
}

function linkLine(): Card {
  const line = '[a](https://x)*_~`|#<@1>@here&<'.repeat(Math.ceil(LENGTH / 32)).slice(0, LENGTH);
  return { title: 'Event', text: line, fields: [{ label: 'Description', value: line }] };
}

/** Times of `runs` calls of `fn` (after `warmup` untimed ones), in ms. */
function timeRuns(fn: () => unknown, runs: number, warmup: number): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return times;
}

async function runRender(ctx: BenchContext): Promise<BenchResult> {
  const started = Date.now();
  const runs = ctx.quick ? 3 : 25;
  const warmup = ctx.quick ? 1 : 5;
  const figures: Figure[] = [];
  const notes: string[] = [];
  const cases: [string, Card][] = [
    ['100,000-char word', longWord()],
    ['100,000-char line of links', linkLine()],
  ];
  for (const [platform, render] of Object.entries(PLATFORMS)) {
    const baseline = percentile(
      timeRuns(() => render(NORMAL), runs, warmup),
      50,
    );
    for (const [name, card] of cases) {
      const times = timeRuns(() => render(card), runs, warmup);
      const p50 = percentile(times, 50);
      figures.push({
        metric: `${platform}: ${name} (p50)`,
        value: p50,
        baseline,
        baselineLabel: 'normal card',
        ratio: baseline > 0 ? p50 / baseline : Number.NaN,
        target: `< ${TARGET_MS} ms`,
        met: p50 < TARGET_MS,
        unit: 'ms',
      });
      notes.push(
        `${platform}, ${name}: p50 ${round(p50)} ms, max ${round(maxOf(times))} ms over ${runs} runs.`,
      );
    }
  }
  const copy = percentile(
    timeRuns(() => Buffer.from(longWord().text ?? '', 'utf8').toString('utf8'), runs, warmup),
    50,
  );
  figures.push(infoFigure('copying the 100,000-char word (utf-8 round trip, p50)', copy, 'ms'));
  if (!ctx.quick) {
    const word = 'a'.repeat(10_000);
    const [old] = timeRuns(() => escapeMarkdown(word, { maskedLink: true, heading: true }), 1, 0);
    figures.push(infoFigure('discord.js escapeMarkdown, 10,000-char word (before)', old ?? Number.NaN, 'ms'));
  }
  return {
    id: 'render',
    title: '6. Rendering hostile text',
    status: 'ran',
    figures,
    params: { length: LENGTH, runs, warmup },
    notes,
    seconds: (Date.now() - started) / 1000,
  };
}

/** The hostile-text rendering benchmark. */
export const renderBenchmark: Benchmark = {
  id: 'render',
  title: '6. Rendering hostile text',
  run: runRender,
};
