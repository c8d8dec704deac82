/**
 * Value-import cycles between source files: two modules that need each other's values at load time
 * (a card that imports the command it puts on a button, which imports the card). Type-only imports
 * are erased at run time, so they never close a cycle. Imports are read with the compiler's own
 * parser ({@link importsOf}).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { CHECKED_ROOTS, importsOf } from './boundaries';

/** Which files each file imports by value: repository-relative paths with `/`. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** The file a relative specifier names (`./x` → `x.ts` or `x/index.ts`), when it exists under `root`. */
function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  const base = join(root, dirname(from), specifier);
  const found = [base, `${base}.ts`, join(base, 'index.ts')].find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
  );
  return found && relative(root, found).split(sep).join('/');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The value-import graph of every source file under {@link CHECKED_ROOTS}. */
export function valueImportGraph(root: string): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const file of CHECKED_ROOTS.flatMap((dir) => sourceFiles(join(root, dir)))) {
    const path = relative(root, file).split(sep).join('/');
    const targets = importsOf(path, readFileSync(file, 'utf8'))
      .filter((edge) => !edge.typeOnly && edge.specifier.startsWith('.'))
      .map((edge) => resolveSpecifier(root, path, edge.specifier))
      .filter((target): target is string => target !== undefined);
    graph.set(path, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The groups of files that reach each other through value imports (the strongly connected
 * components of more than one file, and files that import themselves), each sorted.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    lowest.set(file, order.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!order.has(target)) {
        visit(target);
        lowest.set(file, Math.min(lowest.get(file) as number, lowest.get(target) as number));
      } else if (onStack.has(target)) {
        lowest.set(file, Math.min(lowest.get(file) as number, order.get(target) as number));
      }
    }
    if (lowest.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return cycles;
}
