/**
 * The words no message of Deckhand may show ("plain words"): a validator's or an upstream
 * service's raw phrases, HTTP paths and other tools' CLI commands given as advice, wrong plurals, and
 * raw ISO timestamps. Used by `test/e2e/message-scan.test.ts` over every message the suite's
 * scenarios produce.
 */
import type { Card } from '../../src/core/reply';

/** One kind of problem and how to spot it in a text. */
export interface ScanRule {
  name: string;
  pattern: RegExp;
}

const COUNTED =
  'file|line|categor(?:y|ie)|tag|event|job|build|deployment|item|day|repositor(?:y|ie)|commit|replica|venue|organizer|folder|upload|author|subscription|variable|value|minute|second|hour|message|conversation|tool|view|download';

/** The rules, each a regular expression over one message's text. */
export const SCAN_RULES: readonly ScanRule[] = [
  {
    name: 'validator phrase',
    pattern:
      /Too small|Too big|Invalid input|Invalid option|Value error|Validation error|Received value|Field required|Input should be|\bexpected\b/i,
  },
  {
    name: 'HTTP path',
    pattern:
      /\b(GET|PUT|POST|PATCH|DELETE|HEAD) \/[\w{}.-]|(^|[\s`(])\/(tool|builds?|jobs|api|v\d|envvars|logs|deployment)\/[\w{}.-]+\//,
  },
  {
    name: 'other tool’s CLI as advice',
    pattern: /`toolforge [a-z]|(^|\s)toolforge (build|jobs|envvars|components|webservice) [a-z]/,
  },
  {
    name: 'wrong plural',
    pattern: new RegExp(
      `(^|[^\\d.,])1 (?:${COUNTED.replaceAll('(?:y|ie)', 'ie')})s\\b|(^|[^\\d.,-])(?:0|[2-9]|\\d{2,}) (?:${COUNTED.replaceAll('(?:y|ie)', 'y')})\\b(?![-'’])|\\b\\w+[^aeiou]ys\\b(?<!days|keys|ways|says|plays|stays|displays|arrays|delays|relays|holidays|Sundays|Mondays|Tuesdays|Wednesdays|Thursdays|Fridays|Saturdays)|\\w(?<!http)\\(s\\)`,
    ),
  },
];

/** Raw ISO 8601 timestamps (`2026-11-23T17:55:12.582Z`): times must be written for people. */
export const ISO_TIME: ScanRule = {
  name: 'raw ISO timestamp',
  // An input format shown as an example of what to type (`a time 2026-11-22T10:00:00Z`) is not a time
  // shown, in any of the catalog's languages (`ein Zeitpunkt …`, `wie …`, `או זמן …`, `כמו …`).
  pattern:
    /(?<!(?:a time|such as|e\.g\.|ein Zeitpunkt|wie|z\. B\.|זמן|כמו|למשל) )\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/,
};

/**
 * The words of a card Deckhand wrote: title, text, fields, footer and button labels. Code blocks and
 * attached files (logs, configuration, tables of the service's data) are the service's own and are
 * not scanned.
 */
export function cardWords(card: Card): string {
  return [
    card.title,
    card.text,
    ...(card.fields ?? []).map((f) => `${f.label}: ${f.value}`),
    card.footer,
    ...(card.buttons ?? []).map((b) => b.label),
  ]
    .filter(Boolean)
    .join('\n');
}

/** The problems `rules` find in `text`, each with the matching bit of text around it. */
export function scan(text: string, rules: readonly ScanRule[]): { rule: string; excerpt: string }[] {
  const found: { rule: string; excerpt: string }[] = [];
  for (const rule of rules) {
    const match = rule.pattern.exec(text);
    if (!match) continue;
    const at = match.index;
    found.push({
      rule: rule.name,
      excerpt: text.slice(Math.max(0, at - 60), at + 80).replaceAll('\n', ' ⏎ '),
    });
  }
  return found;
}
