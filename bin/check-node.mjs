// Stops with one clear line when this Node is older than package.json's `engines.node` (a range of
// `^X.Y.Z` and `>=X.Y.Z` alternatives joined by `||`), before any dependency can fail deep inside.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const range = pkg.engines.node;
const parse = (v) => v.replace(/^v/, '').split('.').map(Number);
const [major, minor, patch] = parse(process.versions.node);
const atLeast = ([a, b, c]) => major > a || (major === a && (minor > b || (minor === b && patch >= c)));

/** True when this Node satisfies one alternative of the range. */
export function nodeSatisfies() {
  return range.split('||').some((alternative) => {
    const part = alternative.trim();
    if (part.startsWith('^')) {
      const wanted = parse(part.slice(1));
      return major === wanted[0] && atLeast(wanted);
    }
    if (part.startsWith('>=')) return atLeast(parse(part.slice(2)));
    throw new Error(`engines.node: unsupported range "${part}"`);
  });
}

if (!nodeSatisfies()) {
  process.stderr.write(
    `Deckhand needs Node ${range.replace('||', 'or')}; this is Node ${process.versions.node}. Install a newer Node (e.g. from nodejs.org or your distribution) and run the command again.\n`,
  );
  process.exit(1);
}
