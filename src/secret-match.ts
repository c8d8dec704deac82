/**
 * Where a secret can stand in a piece of text, found without knowing the secret: every candidate
 * span is hashed and looked up (see `src/store/secret-index.ts`), so only exact values of registered
 * secrets are ever masked, and no plaintext has to be kept anywhere to find them.
 *
 * A candidate is
 * - a word: a maximal run of non-blank characters, as is and with wrapping quotes/brackets and
 *   trailing punctuation trimmed (`"s3cr3t",` → `s3cr3t`);
 * - a token run: a maximal run of `A-Z a-z 0-9 - _ . ~ + /` with trailing `=` padding (finds
 *   `s3cr3t` in `token=s3cr3t&x=1`, `Bearer s3cr3t`, a URL path);
 * - the value of a `key=value` / `key:value` word (finds `p@ss!` in `password="p@ss!"`);
 * - for secrets made of several words (`abcd efgh ijkl mnop`), a window of that many consecutive
 *   words, joined by one space.
 *
 * Candidates may repeat (masking merges overlaps). Each character belongs to a bounded number of candidates (words of up to {@link MAX_WORDS} in a
 * window), so the work is linear in the length of the text.
 */

/** The most words a registered secret may have (longer ones are registered without their blanks). */
export const MAX_WORDS = 8;

/** Shortest value that is ever registered as a secret. */
export const MIN_SECRET_LENGTH = 6;

/** A candidate span `[start, end)` of a text and the string it covers. */
export interface Candidate {
  start: number;
  end: number;
  text: string;
}

const WORD = /\S+/g;
const TOKEN_RUN = /[A-Za-z0-9\-_.~+/]+=*/g;
const LEADING = /^["'`([{<]+/;
const TRAILING = /["'`)\]}>,;:.!?]+$/;

interface Word {
  start: number;
  end: number;
}

/** The word trimmed of wrapping punctuation, as a span (may be empty). */
function trimWord(text: string, start: number, end: number): Word {
  const raw = text.slice(start, end);
  const lead = LEADING.exec(raw)?.[0].length ?? 0;
  const trail = TRAILING.exec(raw.slice(lead))?.[0].length ?? 0;
  return { start: start + lead, end: end - trail };
}

/**
 * Every candidate span of `text` (see the module comment). `wordCounts` are the numbers of words of
 * the multi-word secrets there are (2…{@link MAX_WORDS}); the others are always produced.
 */
export function candidates(text: string, wordCounts: Iterable<number> = []): Candidate[] {
  const out: Candidate[] = [];
  let last = { start: -1, end: -1 };
  const add = (start: number, end: number) => {
    if (end - start < MIN_SECRET_LENGTH || (start === last.start && end === last.end)) return;
    last = { start, end };
    out.push({ start, end, text: text.slice(start, end) });
  };
  const words: Word[] = [];
  for (const match of text.matchAll(WORD)) {
    const start = match.index;
    const end = start + match[0].length;
    add(start, end);
    const trimmed = trimWord(text, start, end);
    add(trimmed.start, trimmed.end);
    words.push(trimmed);
    const sep = /[=:]/.exec(match[0]);
    if (sep) {
      const value = trimWord(text, start + sep.index + 1, end);
      add(value.start, value.end);
    }
  }
  for (const match of text.matchAll(TOKEN_RUN)) {
    add(match.index, match.index + match[0].length);
    const dots = /\.+$/.exec(match[0]);
    if (dots) add(match.index, match.index + match[0].length - dots[0].length);
  }
  for (const count of new Set(wordCounts)) {
    if (count < 2 || count > MAX_WORDS) continue;
    for (let i = 0; i + count <= words.length; i += 1) {
      const span = words.slice(i, i + count);
      const first = span[0] as Word;
      const lastWord = span.at(-1) as Word;
      if (first.end <= first.start || lastWord.end <= lastWord.start) continue;
      const joined = span.map((w) => text.slice(w.start, w.end)).join(' ');
      if (joined.length >= MIN_SECRET_LENGTH)
        out.push({ start: first.start, end: lastWord.end, text: joined });
    }
  }
  return out;
}

/**
 * The forms under which a secret value is registered: the value itself with blanks collapsed to one
 * space (found by a word window when it has 2…{@link MAX_WORDS} words), and without blanks (a
 * WordPress application password is accepted either way). Empty when the value is too short.
 */
export function secretForms(value: string): { form: string; words: number }[] {
  const trimmed = value.trim();
  if (trimmed.length < MIN_SECRET_LENGTH) return [];
  const words = trimmed.split(/\s+/);
  if (words.length === 1) return [{ form: trimmed, words: 1 }];
  const compact = words.join('');
  const forms = [{ form: compact, words: 1 }];
  if (words.length <= MAX_WORDS) forms.push({ form: words.join(' '), words: words.length });
  return forms;
}

/** `text` with the given spans replaced by `[redacted]` (overlapping spans are merged). */
export function maskSpans(text: string, spans: readonly { start: number; end: number }[]): string {
  if (spans.length === 0) return text;
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  let open: { start: number; end: number } | undefined;
  for (const span of sorted) {
    if (open && span.start < open.end) {
      open.end = Math.max(open.end, span.end);
      continue;
    }
    if (open) {
      out += `${text.slice(at, open.start)}[redacted]`;
      at = open.end;
    }
    open = { start: span.start, end: span.end };
  }
  if (open) {
    out += `${text.slice(at, open.start)}[redacted]`;
    at = open.end;
  }
  return out + text.slice(at);
}
