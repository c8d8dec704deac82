import type { BenchResult, Figure } from './results';

function num(value: number | undefined, digits = 2): string {
  if (value === undefined) return '';
  if (Number.isNaN(value)) return 'n/a';
  if (!Number.isFinite(value)) return '∞';
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return String(Math.round(value));
  if (abs >= 100) return value.toFixed(Math.min(digits, 1));
  return value.toFixed(digits);
}

function verdict(figure: Figure, quick: boolean): string {
  if (figure.met === undefined) return '';
  if (quick) return figure.met ? '(met)' : '(not met)';
  return figure.met ? 'met' : 'MISSED';
}

/** The rows of the table: one per figure, and one for each benchmark that did not run. */
export function tableRows(results: readonly BenchResult[], quick: boolean): string[][] {
  const rows: string[][] = [];
  for (const result of results) {
    if (result.status !== 'ran') {
      rows.push([result.title, `${result.status}: ${result.reason ?? ''}`, '', '', '', '', '']);
      continue;
    }
    for (const figure of result.figures) {
      const unit = figure.unit ? ` ${figure.unit}` : '';
      rows.push([
        result.title,
        figure.metric,
        `${num(figure.value)}${unit}`,
        figure.baseline === undefined ? '' : `${num(figure.baseline)}${unit} (${figure.baselineLabel ?? ''})`,
        figure.ratio === undefined ? '' : `${num(figure.ratio)}×`,
        figure.target ?? '',
        verdict(figure, quick),
      ]);
    }
  }
  return rows;
}

/** Renders the results as one plain-text table (quick runs do not judge targets: verdicts in brackets). */
export function renderTable(results: readonly BenchResult[], quick: boolean): string {
  const header = ['benchmark', 'figure', 'Deckhand', 'baseline (same run)', 'ratio', 'target', 'verdict'];
  const rows = [header, ...tableRows(results, quick)];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('-|-');
  return [line(header), rule, ...rows.slice(1).map(line)].join('\n');
}

/** The same table in Markdown (for docs/benchmarks.md). */
export function renderMarkdown(results: readonly BenchResult[], quick: boolean): string {
  const header = ['Benchmark', 'Figure', 'Deckhand', 'Baseline (same run)', 'Ratio', 'Target', 'Verdict'];
  const rows = tableRows(results, quick).map((r) => r.map((c) => c.replaceAll('|', '\\|')));
  return [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}
