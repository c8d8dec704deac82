/**
 * Forms in the terminal: each field is asked on its own line. In a script, the lines that follow
 * the command are the answers. On a terminal, what is typed for a secret field is not echoed.
 * `/cancel` at any question drops the form.
 */
import { Writable } from 'node:stream';
import type { FormField, FormSpec } from '../../src/core/forms';
import { type Translator, translator } from '../../src/i18n/translate';

/** Why a question stopped without an answer: the sentence to print instead of "cancelled". */
export interface FormClosed {
  closed: string;
}

/** Reads one answer; undefined when the input ended; {@link FormClosed} when the form became moot. */
export type AskLine = (question: string, secret: boolean) => Promise<string | FormClosed | undefined>;

/** The answers, or undefined when the user cancelled or the input ended. */
export async function askForm(
  form: FormSpec,
  ask: AskLine,
  say: (text: string) => void,
  words: Translator = translator('en'),
): Promise<Record<string, string> | undefined> {
  say(`${form.title}${form.intro ? `\n${form.intro}` : ''}\n${words.t('shell-form-intro')}`);
  const values: Record<string, string> = {};
  for (const field of form.fields) {
    const answer = await askField(field, ask, say, words);
    if (answer === undefined || typeof answer === 'object') {
      say(answer?.closed ?? words.t('form-cancelled'));
      return undefined;
    }
    if (answer !== '') values[field.name] = answer;
  }
  return values;
}

async function askField(
  field: FormField,
  ask: AskLine,
  say: (text: string) => void,
  words: Translator,
): Promise<string | FormClosed | undefined> {
  const hint = field.placeholder ? ` ${words.t('shell-form-example', field.placeholder)}` : '';
  const optional = field.optional ? ` ${words.t('shell-form-optional')}` : '';
  const hidden = field.secret ? ` ${words.t('shell-form-hidden')}` : '';
  const question = `${field.label}${optional}${hidden}${hint}: `;
  for (let attempt = 0; attempt < 3; attempt++) {
    const line = await ask(question, field.secret === true);
    if (typeof line === 'object') return line;
    if (line === undefined || line.trim() === '/cancel') return undefined;
    const answer = field.multiline ? line.replaceAll('\\n', '\n') : line;
    if (answer.trim() !== '' || field.optional) return answer.trim() === '' ? '' : answer;
    say(words.t('form-field-needed', field.label));
  }
  return '';
}

/**
 * The terminal output as readline sees it, with a switch that stops echoing (while a secret is
 * typed). Size and TTY-ness are those of the real terminal.
 */
export class MutableOutput extends Writable {
  /** While true, nothing reaches the terminal. */
  muted = false;

  constructor(private readonly target: NodeJS.WritableStream) {
    super();
    (target as NodeJS.WriteStream).on?.('resize', () => this.emit('resize'));
  }

  /** Columns of the real terminal (readline lays out the line with it). */
  get columns(): number | undefined {
    return (this.target as NodeJS.WriteStream).columns;
  }

  /** Whether the real output is a terminal. */
  get isTTY(): boolean {
    return (this.target as NodeJS.WriteStream).isTTY === true;
  }

  override _write(
    chunk: Buffer | string,
    _encoding: BufferEncoding,
    done: (error?: Error | null) => void,
  ): void {
    if (!this.muted) this.target.write(chunk);
    done();
  }
}
