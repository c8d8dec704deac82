/**
 * What the message catalogs cost a process, as the built program pays it: `catalog-load.ts` is
 * bundled the way `npm run build` bundles Deckhand (esbuild, packages left to node_modules; the
 * catalogs stay JSON files under `i18n/`, read at run time) and run in fresh processes with the web
 * process's node flags, one measurement each.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { deployedNodeFlags, ROOT } from './processes';

/** One process's figures (see `catalog-load.ts`). */
export interface CatalogCost {
  /** Reading the catalogs: saying the first message in each language. */
  loadMs: number;
  /** The first English message alone (English is the fallback of every other language). */
  englishMs: number;
  /** RSS that load added, after a full GC. */
  loadBytes: number;
  /** Saying every message of every language once, after the load. */
  allMs: number;
  /** RSS added by the load and every message said once. */
  allBytes: number;
  messages: number;
}

/** Bundles the probe and runs it in `runs` fresh processes. */
export async function measureCatalogs(runs: number): Promise<CatalogCost[]> {
  const esbuild = await import('esbuild');
  // Inside the repository, so the bundle's package imports resolve through its node_modules.
  const outdir = join(ROOT, 'node_modules', '.cache', 'deckhand-bench', 'catalog-probe');
  await esbuild.build({
    entryPoints: [join(ROOT, 'bench', 'lib', 'catalog-load.ts')],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outdir,
    logLevel: 'silent',
  });
  const costs: CatalogCost[] = [];
  for (let run = 0; run < runs; run++) {
    const out = execFileSync(
      process.execPath,
      [...deployedNodeFlags('web'), '--expose-gc', join(outdir, 'catalog-load.js')],
      {
        encoding: 'utf8',
      },
    );
    costs.push(JSON.parse(out.trim()) as CatalogCost);
  }
  return costs;
}
