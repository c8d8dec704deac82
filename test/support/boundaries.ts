/**
 * The dependency rules between Deckhand's folders, and a checker that reads every import with the
 * TypeScript compiler's own parser (so `import type`, `export … from`, `import('…')` types and
 * dynamic imports are all seen, and a type-only import is told apart from a value import).
 *
 * The table follows DESIGN.md §Layout; `test/core/boundary.test.ts` runs it over the repository.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';

/** Every layer of Deckhand itself, then the harnesses (`bench`, `tests`). */
const LAYERS = [
  'shared',
  'config',
  'core',
  'services',
  'store',
  'coordination',
  'queue',
  'web',
  'sandbox',
  'commands',
  'adapters',
  'wiring',
  'cli',
  'bench',
  'tests',
] as const;

/** A folder (or group of files) whose imports obey one rule. */
export type Layer = (typeof LAYERS)[number];

/** What one layer may import: layers freely, other layers for their types only. */
export interface EdgeRule {
  may: readonly Layer[];
  /** Layers this one may import with `import type` only (erased at run time). */
  typesOf?: readonly Layer[];
}

/** Layers that run Deckhand from outside: any platform's SDK and any restricted package are theirs to use. */
const HARNESSES: readonly Layer[] = ['bench', 'tests'];

/** Every layer of Deckhand itself (the harnesses, `bench` and `tests`, excluded). */
const DECKHAND: readonly Layer[] = LAYERS.filter((layer) => !HARNESSES.includes(layer));

/**
 * The allowed edges. A layer always may import itself (the adapters and command groups with the
 * narrower rule below). `shared` is the few leaf modules every layer uses: secret scrubbing
 * (`src/secrets.ts`, `src/secret-match.ts`), metrics and the version, the logger, the system-package check and the
 * platforms' names (`adapters/platform-names.ts`), and the message catalogs' reader (`src/i18n/`).
 * `sandbox` is the workspace package `packages/sandbox` (`@deckhand/sandbox`): it imports nothing
 * of Deckhand's. `bench` measures the whole of Deckhand with the tests' fakes and support; `tests`
 * (test/) is what bench may reach there, and is not itself checked.
 */
export const ALLOWED: Readonly<Record<Layer, EdgeRule>> = {
  shared: { may: [] },
  // The schema merges each platform's variables from the table of descriptors (adapters/platforms.ts).
  config: { may: ['shared', 'adapters'] },
  core: { may: ['shared'] },
  services: { may: ['core', 'config', 'shared'] },
  store: { may: ['core', 'config', 'shared'] },
  // Lanes, locks and attempt records (docs/coordination.md): the queue and the wiring use them;
  // command groups see a lock's type only (the wiring hands them one).
  coordination: { may: ['core', 'config', 'shared'] },
  sandbox: { may: [] },
  bench: { may: [...DECKHAND, 'tests'] },
  tests: { may: [...DECKHAND] },
  queue: { may: ['core', 'services', 'store', 'coordination', 'config', 'shared'] },
  web: { may: ['core', 'store', 'services', 'config', 'shared'] },
  commands: { may: ['core', 'services', 'shared'], typesOf: ['queue', 'store', 'coordination', 'config'] },
  adapters: { may: ['core', 'config', 'shared'] },
  wiring: { may: DECKHAND.filter((layer) => layer !== 'cli') },
  cli: { may: ['wiring', 'core', 'config', 'shared'] },
};

/** Platform SDKs, each importable only by its own adapter (and tests and benches). */
const SDKS: readonly { adapter: string; pattern: RegExp }[] = [
  { adapter: 'slack', pattern: /^@slack\// },
  { adapter: 'discord', pattern: /^(discord\.js|@discordjs\/)/ },
  { adapter: 'telegram', pattern: /^(grammy|@grammyjs\/)/ },
];

/** Packages that only some layers may import. */
const RESTRICTED_PACKAGES: readonly { pattern: RegExp; layers: readonly Layer[] }[] = [
  { pattern: /^bullmq$/, layers: ['queue', 'coordination', 'wiring'] },
  // `deckhand doctor` pings Redis itself (src/cli/doctor/redis-checks.ts).
  { pattern: /^ioredis$/, layers: ['store', 'coordination', 'queue', 'wiring', 'cli'] },
];

/** This repository's workspace packages, imported by name: the layer each one is. */
const WORKSPACE_PACKAGES: readonly { pattern: RegExp; layer: Layer }[] = [
  { pattern: /^@deckhand\/sandbox(\/|$)/, layer: 'sandbox' },
];

const SHARED_FILES = new Set([
  'src/secrets.ts',
  'src/secret-match.ts',
  'src/metrics.ts',
  'src/version.ts',
  'src/log.ts',
  'src/system-packages.ts',
  // The platforms' names alone (no imports): the queue and store layers keep a delivery queue per platform.
  'adapters/platform-names.ts',
]);
const CONFIG_FILES = new Set([
  'src/config.ts',
  'src/config-docs.ts',
  'src/config-schema.ts',
  'src/config-unfurls.ts',
]);
/** The layers that are a folder of `src/`. */
const SRC_FOLDERS: readonly Layer[] = ['core', 'services', 'store', 'coordination', 'queue', 'web', 'wiring'];

/** The layer of a repository-relative path (with `/`), or `undefined` outside the checked tree. */
export function layerOf(path: string): Layer | undefined {
  const file = /\.[cm]?[jt]s$/.test(path) ? path : `${path}.ts`;
  if (SHARED_FILES.has(file)) return 'shared';
  // The message catalogs' reader (src/i18n/: banana-i18n over i18n/*.json), which every layer writes its words with.
  if (file.startsWith('src/i18n/') || /^i18n\/[\w-]+\.json$/.test(path)) return 'shared';
  if (CONFIG_FILES.has(file)) return 'config';
  if (file === 'src/main.ts' || file === 'src/system-packages.ts' || file.startsWith('src/cli/'))
    return 'cli';
  // A folder import (`../commands`, `../src/wiring`) means its index.
  const top = /^src\/([\w-]+)(\/|$)/.exec(path)?.[1] as Layer | undefined;
  if (top && SRC_FOLDERS.includes(top)) return top;
  if (/^adapters(\/|$)/.test(path)) return 'adapters';
  if (/^commands(\/|$)/.test(path)) return 'commands';
  if (/^packages\/sandbox(\/|$)/.test(path)) return 'sandbox';
  if (/^bench(\/|$)/.test(path)) return 'bench';
  if (/^test(\/|$)/.test(path)) return 'tests';
  return undefined;
}

/** `adapters/slack/x.ts` → `slack`; a file directly under `adapters/` → `undefined`. */
function subfolder(path: string, root: 'adapters' | 'commands'): string | undefined {
  const parts = path.split('/');
  return parts[0] === root && parts.length > 2 ? parts[1] : undefined;
}

/** One import found in a file. */
export interface ImportEdge {
  /** The specifier as written. */
  specifier: string;
  /** Erased at run time (`import type`, `export type … from`, only `type` specifiers, `import('…')` in a type). */
  typeOnly: boolean;
  line: number;
}

/** Every import, re-export and dynamic import of one source text. */
export function importsOf(fileName: string, text: string): ImportEdge[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const add = (literal: ts.Expression | undefined, typeOnly: boolean) => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    const { line } = source.getLineAndCharacterOfPosition(literal.getStart(source));
    edges.push({ specifier: literal.text, typeOnly, line: line + 1 });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allTypes =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((element) => element.isTypeOnly)));
      add(node.moduleSpecifier, allTypes);
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      const allTypes =
        node.isTypeOnly ||
        (clause !== undefined &&
          ts.isNamedExports(clause) &&
          clause.elements.length > 0 &&
          clause.elements.every((element) => element.isTypeOnly));
      add(node.moduleSpecifier, allTypes);
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument)) add(argument.literal as ts.Expression, true);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** A broken rule: where, what, and which rule. */
export interface Violation {
  file: string;
  line: number;
  specifier: string;
  reason: string;
}

/** Checks one file (path relative to the repository root, with `/`) against the table. */
export function checkFile(path: string, text: string): Violation[] {
  const from = layerOf(path);
  if (!from) return [];
  const rule = ALLOWED[from];
  const violations: Violation[] = [];
  for (const edge of importsOf(path, text)) {
    const at = { file: path, line: edge.line, specifier: edge.specifier };
    const workspace = WORKSPACE_PACKAGES.find((candidate) => candidate.pattern.test(edge.specifier));
    if (workspace) {
      const reason = edgeViolation(rule, from, workspace.layer, edge.typeOnly);
      if (reason) violations.push({ ...at, reason });
      continue;
    }
    if (!edge.specifier.startsWith('.')) {
      const pkg = edge.specifier;
      const sdk = SDKS.find((candidate) => candidate.pattern.test(pkg));
      const ownSdk = from === 'adapters' && subfolder(path, 'adapters') === sdk?.adapter;
      if (sdk && !ownSdk && !HARNESSES.includes(from)) {
        violations.push({
          ...at,
          reason: `${from} imports the ${sdk.adapter} SDK (only adapters/${sdk.adapter}/ may)`,
        });
      }
      const restricted = RESTRICTED_PACKAGES.find((candidate) => candidate.pattern.test(pkg));
      if (restricted && !restricted.layers.includes(from) && !HARNESSES.includes(from) && !edge.typeOnly) {
        violations.push({
          ...at,
          reason: `${from} imports ${pkg} (only ${restricted.layers.join(', ')} may)`,
        });
      }
      continue;
    }
    const target = join(dirname(path), edge.specifier).split(sep).join('/');
    const to = layerOf(target);
    if (!to) {
      violations.push({ ...at, reason: `${from} imports ${target}, outside the layered tree` });
      continue;
    }
    if (to === from) {
      const reason = sameLayerViolation(from, path, target);
      if (reason) violations.push({ ...at, reason });
      continue;
    }
    const reason = edgeViolation(rule, from, to, edge.typeOnly);
    if (reason) violations.push({ ...at, reason });
  }
  return violations;
}

/** Why the edge `from → to` breaks `rule`, or `undefined` when it is allowed. */
function edgeViolation(rule: EdgeRule, from: Layer, to: Layer, typeOnly: boolean): string | undefined {
  if (to === from || rule.may.includes(to)) return undefined;
  if (typeOnly && rule.typesOf?.includes(to)) return undefined;
  const typesNote = rule.typesOf?.includes(to) ? ' (types only, with `import type`)' : '';
  return `${from} → ${to} is not an allowed edge${typesNote}`;
}

/**
 * Within `adapters/`, one adapter never imports another (the shared files directly under
 * `adapters/` are open to all). Within `commands/`, a group imports only itself and the shared
 * files directly under `commands/`.
 */
function sameLayerViolation(layer: Layer, path: string, target: string): string | undefined {
  if (layer !== 'adapters' && layer !== 'commands') return undefined;
  const own = subfolder(path, layer);
  const other = subfolder(target, layer);
  if (own === undefined || other === undefined || own === other) return undefined;
  return `${layer}/${own}/ imports ${layer}/${other}/ (siblings do not import each other)`;
}

/** The folders the table covers. */
export const CHECKED_ROOTS = ['src', 'adapters', 'commands', 'packages/sandbox/src', 'bench'] as const;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Broken edges still waiting for their fix, each with the reason. The list only shrinks: the
 * repository check fails on an entry that no longer matches anything.
 */
export const PENDING: readonly { file: string; specifier: string; why: string }[] = [];

/** Checks every source file under {@link CHECKED_ROOTS}; `stale` lists {@link PENDING} entries that match nothing. */
export function checkRepository(root: string): { files: number; violations: Violation[]; stale: string[] } {
  const files = CHECKED_ROOTS.flatMap((dir) => sourceFiles(join(root, dir)));
  const all = files.flatMap((file) =>
    checkFile(relative(root, file).split(sep).join('/'), readFileSync(file, 'utf8')),
  );
  const pending = (v: { file: string; specifier: string }) => (p: { file: string; specifier: string }) =>
    p.file === v.file && p.specifier === v.specifier;
  const violations = all.filter((v) => !PENDING.some(pending(v)));
  const stale = PENDING.filter((p) => !all.some(pending(p))).map((p) => `${p.file} → ${p.specifier}`);
  return { files: files.length, violations, stale };
}

/** One line per violation, for a readable failure. */
export function formatViolations(violations: readonly Violation[]): string {
  return violations.map((v) => `${v.file}:${v.line} ${v.specifier} — ${v.reason}`).join('\n');
}
