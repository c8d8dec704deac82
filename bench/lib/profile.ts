/**
 * A short reading of V8 CPU profiles (`--cpu-prof`): how busy the process was, and where its samples
 * went by function and by package — enough to say what limits a benchmark that missed its target.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

function where(url: string): string {
  if (!url) return '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:')) return 'node';
  const local = /\/(src|adapters|commands|bench|test)\/(.*)$/.exec(url);
  return local ? `${local[1]}/${local[2]}` : url;
}

/** Top functions and packages of one `.cpuprofile`, as text lines. */
export function summarizeProfile(file: string, top = 8): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
  const total = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
  if (total === 0) return [`${file}: no samples`];
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let idle = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const name = node.callFrame.functionName || '(anonymous)';
    if (name === '(idle)') {
      idle += hits;
      continue;
    }
    const place = where(node.callFrame.url);
    const key = `${name} (${place}${node.callFrame.url ? `:${node.callFrame.lineNumber + 1}` : ''})`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
    const bucket =
      place.startsWith('src/') || place.startsWith('adapters/')
        ? place.split('/').slice(0, 2).join('/')
        : place;
    byPlace.set(bucket, (byPlace.get(bucket) ?? 0) + hits);
  }
  const pct = (n: number) => `${((n * 100) / total).toFixed(1)}%`;
  const best = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${pct(v)} ${k}`);
  return [
    `busy ${pct(total - idle)} of ${total} samples`,
    `  by function: ${best(byFunction).join('; ')}`,
    `  by place: ${best(byPlace).join('; ')}`,
  ];
}

/** Every `.cpuprofile` under `dir` (recursively), biggest first. */
export function profilesIn(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const path = join(d, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.cpuprofile')) found.push(path);
    }
  };
  walk(dir);
  return found.sort((a, b) => statSync(b).size - statSync(a).size);
}

/** Summaries of the profiles under `dir`, skipping near-empty ones (tsx's loader thread). */
export function summarizeProfiles(dir: string, root: string): string[] {
  const lines: string[] = [];
  for (const file of profilesIn(dir)) {
    const summary = summarizeProfile(file);
    if (
      /busy (\d+\.\d)%/.exec(summary[0] ?? '')?.[1] &&
      Number(/busy (\d+\.\d)%/.exec(summary[0] ?? '')?.[1]) < 5
    )
      continue;
    lines.push(`${relative(root, file)}: ${summary.join('\n')}`);
  }
  return lines;
}
