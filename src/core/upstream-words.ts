/**
 * A remote service's error message in Deckhand's words. Services built on FastAPI/pydantic answer
 * "Validation error at since: Value error, Invalid time … Received value: 'x'", "field x: Field
 * required" (a 422 `detail` as the service's client renders it) and "1 validation error for Model\n
 * Value error, … [type=value_error, …]". Each such line becomes one sentence naming the value and
 * what is wrong with it; HTTP routes offered as advice are left out. Other lines are kept as the
 * service said them.
 */
import { type Translator, translator } from '../i18n/translate';

/** pydantic's message for one value, as a phrase: `is required`, `should be a valid integer`. */
function valuePhrase(msg: string, say: Translator): string {
  const text = msg
    .replace(/\s*\[type=[^\]]*\]\s*$/, '')
    .replace(/^Value error,\s*/i, '')
    .replace(/^Assertion failed,\s*/i, '')
    .trim()
    .replace(/\.$/, '');
  if (/^Field required$/i.test(text)) return say.t('issue-upstream-required');
  const should = /^Input should be (.+?)(?:, unable to interpret input)?$/i.exec(text);
  if (should) return say.t('issue-upstream-should-be', should[1] as string);
  const time = /^Invalid time: expected (.+)$/i.exec(text);
  if (time) return say.t('issue-upstream-bad-time', time[1] as string);
  if (/^Extra inputs are not permitted$/i.test(text)) return say.t('issue-upstream-not-an-option');
  return text.replace(/\bexpected\b/gi, 'should be');
}

/** `a -> b` or `a.b` as `the value of a.b`; the whole request when there is no field. */
function fieldName(loc: string, say: Translator): string {
  const name = loc.trim().replace(/\s*->\s*/g, '.');
  return name ? say.t('issue-upstream-value-of', name) : say.t('issue-upstream-the-request');
}

function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  const capital = trimmed[0]?.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** A line of the service's own, ended with a full stop (its first word may be a name: never capitalised). */
function withStop(text: string): string {
  const trimmed = text.trim();
  return !trimmed || /[.!?:)]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** One line of a service's message, in Deckhand's words. */
function lineInWords(line: string, say: Translator): string {
  const atField = /^Validation error at ([^:]*): (.*?)(?:\.?\s*Received value: '(.*)')?$/s.exec(line);
  if (atField) {
    const value = atField[3] !== undefined ? ` (\`${atField[3].slice(0, 60)}\`)` : '';
    return sentence(
      `${fieldName(atField[1] as string, say)}${value} ${valuePhrase(atField[2] as string, say)}`,
    );
  }
  const field = /^field ([\w.[\]-]+): (.*)$/s.exec(line);
  if (field) return sentence(`${fieldName(field[1] as string, say)} ${valuePhrase(field[2] as string, say)}`);
  if (/^\d+ validation errors? for \w+$/i.test(line.trim())) return '';
  if (/^\s*Value error,/i.test(line)) return sentence(valuePhrase(line.trim(), say));
  return withStop(
    line
      .replace(/\s*(?:or )?(?:GET|PUT|POST|PATCH|DELETE) \/[\w{}/.-]+(?: to [^.]*)?/g, '')
      .replace(/Use the '(\w+)' subcommand\s*\./, (_, name: string) =>
        say.t('issue-upstream-use-command', name),
      ),
  );
}

/** A service's message in Deckhand's words (`say`'s language), line by line (empty lines dropped). */
export function upstreamWords(message: string, say: Translator = translator('en')): string {
  return message
    .split('\n')
    .map((line) => lineInWords(line, say))
    .filter((line) => line.trim() !== '')
    .join('\n');
}
