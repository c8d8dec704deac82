/** Deckhand's version, as package.json gives it. */
import { readFileSync } from 'node:fs';

/**
 * The version in package.json: `../package.json` from `src/` or `dist/main.js`, `../../package.json`
 * from a bundle chunk in `dist/chunks/`; `unknown` when neither is Deckhand's.
 */
export function deckhandVersion(): string {
  for (const path of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'deckhand' && pkg.version) return pkg.version;
    } catch {
      // not at this depth; try the next
    }
  }
  return 'unknown';
}
