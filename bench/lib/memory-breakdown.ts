/**
 * Where a Deckhand process's memory is, read from its own `/metrics` (Node's default metrics): the
 * V8 heap (total and used), memory outside it (buffers, native), and the resident set — so a peak RSS
 * figure can say what grew.
 */

const MB = 2 ** 20;

function gauge(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  const value = line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : Number.NaN;
  return Number.isFinite(value) ? value : undefined;
}

/** The `METRICS_TOKEN` benchmark processes are started with (so their `/metrics` can be read). */
export const BENCH_METRICS_TOKEN = 'bench-metrics-token-0123456789';

/** One line: heap total/used, external, RSS of the process serving `url` (or why it is unknown). */
export async function memoryBreakdown(url: string): Promise<string> {
  try {
    const response = await fetch(`${url}/metrics`, {
      headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` },
    });
    if (response.status !== 200) return `memory breakdown unavailable (/metrics answered ${response.status})`;
    const text = await response.text();
    const mb = (name: string) => {
      const value = gauge(text, name);
      return value === undefined ? '?' : `${Math.round(value / MB)} MB`;
    };
    return `heap ${mb('nodejs_heap_size_used_bytes')} used of ${mb('nodejs_heap_size_total_bytes')}, external ${mb('nodejs_external_memory_bytes')}, RSS ${mb('process_resident_memory_bytes')}`;
  } catch (error) {
    return `memory breakdown unavailable (${(error as Error).message})`;
  }
}
