/**
 * Form answers for a scripted terminal chat (`deckhand shell` with a script on stdin, or `--script`):
 * a script never answers a form with the lines that follow the command (they are the next commands),
 * so the answers come from `--answers`, given as JSON or as `name=value` pairs.
 */
import type { FormSpec } from '../../src/core/forms';
import { type Translator, translator } from '../../src/i18n/translate';

/** Gives the answers of one form in a script, or undefined when there are none for it. */
export type FormAnswerSource = (form: FormSpec) => Promise<Record<string, string> | undefined>;

/** A parsed `--answers` value, or the sentence saying what is wrong with it. */
export type ParsedAnswers = { ok: true; sets: Record<string, string>[] } | { ok: false; message: string };

function stringsOf(value: unknown): Record<string, string> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [name, answer] of Object.entries(value)) {
    if (typeof answer === 'string') out[name] = answer;
    else if (typeof answer === 'number' || typeof answer === 'boolean') out[name] = String(answer);
    else return undefined;
  }
  return out;
}

/**
 * Parses the `--answers` values. Each value is a JSON object (`{"value":"s3cret"}`), a JSON array of
 * objects (one per form, in the order the forms open), or `name=value` pairs separated by `&` or
 * given as separate `--answers` options. A JSON object or a set of pairs answers one form; the last
 * set answers every later form too, so one `--answers value=x` serves a script of many `set`s.
 */
export function parseAnswers(values: readonly string[], say: Translator = translator('en')): ParsedAnswers {
  const sets: Record<string, string>[] = [];
  const pairs: Record<string, string> = {};
  for (const raw of values) {
    const text = raw.trim();
    if (text.startsWith('{') || text.startsWith('[')) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return { ok: false, message: say.t('shell-answers-not-json') };
      }
      const list = Array.isArray(json) ? json : [json];
      for (const item of list) {
        const set = stringsOf(item);
        if (!set) {
          return { ok: false, message: say.t('shell-answers-not-text') };
        }
        sets.push(set);
      }
      continue;
    }
    for (const pair of text.split('&')) {
      const at = pair.indexOf('=');
      if (at <= 0) {
        return { ok: false, message: say.t('shell-answers-neither', pair.slice(0, 40)) };
      }
      pairs[pair.slice(0, at).trim()] = pair.slice(at + 1);
    }
  }
  if (Object.keys(pairs).length > 0) sets.push(pairs);
  return { ok: true, sets };
}

/** A source that hands out the parsed sets in order, the last one for every later form. */
export function answersFrom(sets: readonly Record<string, string>[]): FormAnswerSource {
  let next = 0;
  return async () => {
    if (sets.length === 0) return undefined;
    const set = sets[Math.min(next, sets.length - 1)];
    next++;
    return set;
  };
}

/** A field list for messages: `value`, `title (optional)`. */
function fieldList(form: FormSpec, say: Translator): string {
  return form.fields
    .map((f) => (f.optional ? say.t('shell-answers-optional-field', f.name) : f.name))
    .join(', ');
}

/** An example `--answers` for a form: its required fields with their placeholders. */
function example(form: FormSpec): string {
  const shown = form.fields.filter((f) => !f.optional);
  const fields = shown.length > 0 ? shown : form.fields.slice(0, 1);
  return fields.map((f) => `${f.name}=${f.secret ? '…' : (f.placeholder ?? '…')}`).join('&');
}

/**
 * The answers of `form` out of `given`, or the sentence that refuses the form: answers missing, a
 * required field missing, or a name the form does not have. Nothing is run when it refuses.
 */
export function checkAnswers(
  form: FormSpec,
  given: Record<string, string> | undefined,
  say: Translator = translator('en'),
): { ok: true; values: Record<string, string> } | { ok: false; message: string } {
  const tail = say.t('shell-answers-not-opened', fieldList(form, say));
  if (!given) {
    return { ok: false, message: `${say.t('shell-answers-needed', form.title, example(form))} ${tail}` };
  }
  const names = new Set(form.fields.map((f) => f.name));
  const values: Record<string, string> = {};
  const missing = form.fields.filter((f) => !f.optional && !(given[f.name] ?? '').trim()).map((f) => f.name);
  if (missing.length > 0) {
    return {
      ok: false,
      message: `${say.t('shell-answers-missing', missing.join(', '), form.title)} ${tail}`,
    };
  }
  for (const [name, value] of Object.entries(given)) {
    if (!names.has(name)) continue;
    const field = form.fields.find((f) => f.name === name);
    if (value.trim() !== '') values[name] = field?.multiline ? value.replaceAll('\\n', '\n') : value;
  }
  return { ok: true, values };
}
