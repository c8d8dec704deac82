import { UsageError } from './errors';

/** One word of a command line; `quoted` words are never read as flags. */
export interface Token {
  text: string;
  quoted: boolean;
}

const OPENING_QUOTES: Record<string, string> = { '"': '"', "'": "'", '“': '”', '‘': '’', '«': '»' };

/**
 * Splits a command line into words. Double, single and typographic quotes group words (chat clients
 * turn `"` into `“”`); a backslash escapes the next character inside double quotes and outside quotes.
 * Never throws anything but a {@link UsageError} (for an unclosed quote).
 */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let current = '';
  let inWord = false;
  let quoted = false;
  let closing: string | undefined;

  const push = () => {
    if (inWord) tokens.push({ text: current, quoted });
    current = '';
    inWord = false;
    quoted = false;
  };

  const chars = Array.from(line);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (closing !== undefined) {
      if (ch === closing) {
        closing = undefined;
      } else if (ch === '\\' && closing === '"' && i + 1 < chars.length) {
        current += chars[++i];
      } else {
        current += ch;
      }
      continue;
    }
    if (/\s/u.test(ch)) {
      push();
    } else if (OPENING_QUOTES[ch] !== undefined) {
      closing = OPENING_QUOTES[ch];
      inWord = true;
      quoted = true;
    } else if (ch === '\\' && i + 1 < chars.length) {
      current += chars[++i];
      inWord = true;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (closing !== undefined) {
    const quote = closing;
    throw UsageError.inWords((say) => ({ message: say.t('issue-quote-not-closed', quote) }));
  }
  push();
  return tokens;
}
