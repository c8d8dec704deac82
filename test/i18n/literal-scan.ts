/**
 * Finds the user-facing text written in the code instead of the catalogs: string and template
 * literals that read as words for people (two words or more), outside what people
 * never read — log lines, developers' errors (`new Error(…)`), imports, property names, type
 * positions, comparisons and `switch` cases — and outside comments (the parser skips them).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/**
 * Text people read: two words of two letters or more with a space (and maybe a `$` value) between
 * them (`full card: $`, `Build $ of $`, `Deckhand card`); names, keys, paths and file names have no
 * space (`mx:form`, `output.txt`).
 */
const PROSE = /\p{L}{2,}[\p{L}'’-]*[,:;.!?)]*\s+(?:\$\S*\s+)?[^\s\p{L}]*\p{L}{2,}/u;

/**
 * A command line (`/deployment list $`, `/link calendar`): the command language, English on every
 * platform — a command's name (up to three words), then only `$` values, `--options` and `<…>`/`[…]`.
 */
const COMMAND_LINE =
  /^\/[a-z][a-z-]*(?: [a-z][a-z-]*){0,2}(?: (?:\$|--[a-z-]+(?:=\$| [\w.:/@-]+)?|<[^>]*>|\[[^\]]*\]))*$/;

/**
 * Text for machines or the operator, whatever words it holds: Lua for Redis, date-format patterns
 * (`ccc d LLL yyyy`), HTTP header values (cookies, content types, content security policies), lists
 * of settings' names.
 */
const MACHINE_TEXT = [
  /redis\.call\(/,
  /^(?=.*(?:yyyy|ccc|HH))[yMdHhmsSLcEaZ.,:'\s/-]+$/,
  /(?:^|; )(?:Path|Max-Age|SameSite)=|\bHttpOnly\b|'self'|'none'|charset=|^attachment; filename=/,
  // A list of settings' names (`SLACK_BOT_TOKEN with SLACK_SIGNING_SECRET`): the operator's words.
  /^[A-Z][A-Z0-9]*_[A-Z0-9_]+(?:(?:, | with | and | or )[A-Z][A-Z0-9]*_[A-Z0-9_]+)+$/,
];

/** Calls whose text no chat reader sees: log lines and developers' errors. */
const UNREAD_CALLS =
  /^(?:(?:\w+(?:\(\))?\.)*(?:logger|log|sdkLogger|console)\.\w+|(?:\w+(?:\(\))?\.)*(?:debug|info|warn|error|trace|fatal)|assert\w*|describe|it|test|expect)$/;

/** Errors a person never reads (the core answers them with a reference id). */
const DEVELOPER_ERRORS = new Set(['Error', 'TypeError', 'RangeError', 'AbortError', 'UnrecoverableError']);

/** Metrics, whose help texts are for the operator's dashboards. */
const METRICS = new Set(['Counter', 'Gauge', 'Histogram', 'Summary']);

/** One literal found: where, and its text. */
export interface Literal {
  file: string;
  line: number;
  text: string;
}

function calleeName(expression: ts.Expression): string {
  return expression.getText().replace(/\s+/g, '');
}

/** True when the literal's place is one where nobody reads it. */
function unread(node: ts.Node): boolean {
  for (let at: ts.Node = node; at.parent; at = at.parent) {
    const parent = at.parent;
    if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) return true;
    if (ts.isTypeNode(parent) && !ts.isTypeLiteralNode(parent)) return true;
    if (ts.isLiteralTypeNode(parent)) return true;
    if (ts.isPropertyAssignment(parent) && parent.name === at) return true;
    // A command's examples are command lines, in the command language.
    if (ts.isPropertyAssignment(parent) && parent.name.getText() === 'examples') return true;
    if (ts.isCaseClause(parent) && parent.expression === at) return true;
    if (ts.isElementAccessExpression(parent) && parent.argumentExpression === at) return true;
    if (
      ts.isBinaryExpression(parent) &&
      [
        ts.SyntaxKind.EqualsEqualsEqualsToken,
        ts.SyntaxKind.ExclamationEqualsEqualsToken,
        ts.SyntaxKind.EqualsEqualsToken,
        ts.SyntaxKind.ExclamationEqualsToken,
      ].includes(parent.operatorToken.kind)
    )
      return true;
    if (ts.isCallExpression(parent) && UNREAD_CALLS.test(calleeName(parent.expression))) return true;
    if (ts.isNewExpression(parent) && DEVELOPER_ERRORS.has(calleeName(parent.expression))) return true;
    if (ts.isNewExpression(parent) && METRICS.has(calleeName(parent.expression))) return true;
    if (ts.isStatement(parent) || ts.isFunctionLike(parent)) return false;
  }
  return false;
}

/** What a reader sees of a literal: HTML tags, their attributes and style sheets left out. */
function wordsOf(text: string): string {
  return text
    .replace(/<style>[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .trim();
}

/** The text of a literal, its `${…}` parts written as `$`. */
function textOf(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('$');
  return undefined;
}

/** The user-facing literals of one source text. */
export function literalsIn(file: string, source: string): Literal[] {
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Literal[] = [];
  const visit = (node: ts.Node): void => {
    const text = textOf(node);
    if (text !== undefined) {
      if (
        PROSE.test(wordsOf(text)) &&
        !COMMAND_LINE.test(text) &&
        !MACHINE_TEXT.some((m) => m.test(text)) &&
        !unread(node)
      ) {
        const { line } = parsed.getLineAndCharacterOfPosition(node.getStart());
        found.push({ file, line: line + 1, text });
      }
      if (!ts.isTemplateExpression(node)) return;
    }
    ts.forEachChild(node, visit);
  };
  visit(parsed);
  return found;
}

/** Every `.ts` file under `dir` (relative to `root`), or `dir` itself when it is a file. */
export function sourceFiles(root: string, dir: string): string[] {
  if (dir.endsWith('.ts')) return [dir];
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(root, path);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The user-facing literals of every source file under `dirs`. */
export function literalsUnder(root: string, dirs: readonly string[]): Literal[] {
  return dirs
    .flatMap((dir) => sourceFiles(root, dir))
    .flatMap((file) => literalsIn(file, readFileSync(join(root, file), 'utf8')));
}
