import type { CardField, CardStatus, DraftCard } from '../src/core/reply';
import { absoluteText, cardTime } from '../src/core/times';
import { type Translator, translator } from '../src/i18n/translate';
import type { Quota, ToolhostClient } from '../src/services/toolhost';

/** Parses the components API's `YYYYmmdd-HHMMSS` (UTC) timestamps. */
export function parseCompactUtc(value: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})/.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  return new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi, s));
}

/**
 * A time as text where a card cannot carry a time value (inside a sentence): the one text shape of
 * `src/core/times.ts`, in UTC (`Mon 23 Nov 2026, 17:55 UTC`).
 */
export function formatUtc(date: Date | undefined): string {
  const time = cardTime(date);
  return time ? absoluteText(time) : 'unknown';
}

/** `1m 05s`. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return minutes > 0 ? `${minutes}m ${String(seconds).padStart(2, '0')}s` : `${seconds}s`;
}

/** Adds the platform's not-yet-shown warnings (deprecations, beta notice) to a card's footer. */
export function withWarnings(card: DraftCard, client: ToolhostClient): DraftCard {
  const warnings = client.takeWarnings();
  if (warnings.length === 0) return card;
  const note = warnings.map((w) => `⚠ ${w}`).join('\n');
  return { ...card, footer: card.footer ? `${card.footer}\n${note}` : note };
}

/** Lines of a fixed-width table, columns padded to their widest cell. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows
    .map((row) =>
      row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '),
    )
    .join('\n');
}

/** Quota categories as card fields: `Registry / Storage: 1.2Gi of 5Gi used (24%)`. */
export function quotaFields(quota: Quota): CardField[] {
  return quota.categories.flatMap((category) =>
    category.items.map((item) => {
      const parts = [
        item.used !== undefined && item.used !== null ? `${item.used} used` : undefined,
        item.limit ? `of ${item.limit}` : undefined,
      ];
      const capacity = item.capacity ? ` (${item.capacity})` : '';
      return {
        label: `${category.name} / ${item.name}`,
        value: `${parts.filter(Boolean).join(' ') || 'n/a'}${capacity}`,
        inline: true,
      };
    }),
  );
}

/** Card colour for a state word. */
export function statusOf(state: string): CardStatus {
  const s = state.toLowerCase();
  if (/(success|successful|succeeded|ok|running for|completed)$/.test(s)) return 'success';
  if (/(fail|failure|failed|timeout|timed_out|error)/.test(s)) return 'danger';
  if (/(cancel)/.test(s)) return 'warning';
  if (/(pending|running|starting|waiting)/.test(s)) return 'progress';
  return 'info';
}

/**
 * Texts joined as sentences: each ends with a full stop unless it ends with punctuation already, so
 * two upstream statuses never run together ("…skipping the build. Job web is already up to date.").
 */
export function sentences(parts: readonly (string | undefined | null)[]): string {
  return parts
    .map((part) => part?.trim() ?? '')
    .filter(Boolean)
    .map((part) => (/[.!?…:]$/.test(part) ? part : `${part}.`))
    .join(' ');
}

/**
 * The builds service's message in Deckhand's words: its advice to run its own CLI
 * (`toolforge build logs <id>`, builds-api `tekton` status messages) becomes the Deckhand command.
 */
export function buildMessageInWords(
  message: string,
  tool: string,
  say: Translator = translator('en'),
): string {
  return message
    .replace(/Check the logs with `toolforge build logs ([\w.-]+)`\.?/g, (_all, id: string) =>
      say.t('format-build-see-log', tool, id),
    )
    .replace(/you can check the build logs for more info: ([\w.\s-]+)$/, (_all, ids: string) =>
      say.t('format-build-see-log-lower', tool, ids.trim().split(/\s+/)[0] ?? ''),
    );
}
