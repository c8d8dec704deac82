/**
 * Forms on IRC, as prompts in the person's private query with the bot: IRC has no modals, so each
 * field is asked in turn and the person's next line there answers it (`cancel` stops; an empty
 * optional field is skipped with `-`). A form is asked only of a person identified with services, and
 * its answers are taken only from that account (a nick can be taken over). A form with a secret field
 * is not asked at all — IRC text is never private — so the command offers its one-time secret page
 * instead. When the last answer arrives, the form's command runs as the person, through the core's
 * form handling.
 */
import type { FormSpec } from '../../src/core/forms';
import type { KeyValueStore } from '../../src/core/host';
import { type LanguageStore, readerLanguage } from '../../src/core/languages';
import type { Card } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import { type IrcPlace, invocationOf } from './surface';

/** A form being asked, as stored (sealed) under the person's account. */
interface AskedForm {
  formId: string;
  form: FormSpec;
  step: number;
  answers: Record<string, string>;
  expiresAt: number;
  /** The language the form is asked in (the person's, read when it opened). */
  language?: string;
}

/** What the form flow needs. */
export interface IrcFormDeps {
  /** Sealed: answers are kept encrypted between steps. */
  store: KeyValueStore;
  /** Posts a card in the private query with `nick`. */
  post(nick: string, card: Card): Promise<unknown>;
  timeoutMs: number;
  /** Runs a completed form as the person at `place` (their private query). */
  submit(place: IrcPlace, formId: string, values: Record<string, string>): Promise<void>;
  /** The `/language` settings: IRC says no one's language, so the person's own setting is read. */
  languages?: LanguageStore | undefined;
}

/** True for a line that stops the open form (`cancel`, `!cancel`, `/cancel`). */
export function isCancel(line: string, prefix: string): boolean {
  const text = line.trim().toLowerCase();
  return text === 'cancel' || text === `${prefix}cancel` || text === '/cancel';
}

/** The words a form is asked in (English for one stored before it had a language). */
function wordsOf(asked: AskedForm): Translator {
  return translator(asked.language);
}

/** Step-by-step forms in private queries (see the module comment). */
export class IrcForms {
  constructor(private readonly deps: IrcFormDeps) {}

  /** Starts asking `form` of the person at `place`; false when it cannot be asked on IRC. */
  async open(formId: string, form: FormSpec, place: IrcPlace): Promise<boolean> {
    if (!place.account || form.fields.some((field) => field.secret)) return false;
    const invocation = invocationOf(place);
    const asked: AskedForm = {
      formId,
      form,
      step: 0,
      answers: {},
      expiresAt: Date.now() + this.deps.timeoutMs,
      language: await readerLanguage(invocation.user, invocation.conversationId, this.deps.languages),
    };
    await this.deps.store.set(place.account, JSON.stringify(asked), { ttlMs: this.deps.timeoutMs });
    await this.ask(place.nick, asked);
    return true;
  }

  private async ask(nick: string, asked: AskedForm): Promise<void> {
    const field = asked.form.fields[asked.step];
    if (!field) return;
    const say = wordsOf(asked);
    const first = asked.step === 0;
    const optional = field.optional ? ` ${say.t('form-step-optional')}` : '';
    const example = field.placeholder ? ` ${say.t('form-step-example', field.placeholder)}` : '';
    const how = first ? ` ${say.t('irc-form-intro')}` : '';
    const count = say.t('form-step-count', asked.step + 1, asked.form.fields.length);
    await this.deps.post(nick, {
      ...(first ? { title: asked.form.title } : {}),
      text: `${field.label}${optional}${example} — ${count}.${how}`,
      ...(first && asked.form.intro
        ? { fields: [{ label: say.t('irc-form-about'), value: asked.form.intro }] }
        : {}),
      status: 'info',
      locale: say.language,
    });
  }

  /**
   * Takes a line of the person at `place` (a private query) as the answer to their open form; false
   * when they have none.
   */
  async answer(place: IrcPlace, text: string): Promise<boolean> {
    if (!place.account) return false;
    const stored = await this.deps.store.get(place.account);
    if (!stored) return false;
    const asked = JSON.parse(stored) as AskedForm;
    const field = asked.form.fields[asked.step];
    if (Date.now() > asked.expiresAt || !field) return false;
    const value = text.trim();
    if (value === '' || (value === '-' && !field.optional)) {
      const say = wordsOf(asked);
      await this.deps.post(place.nick, {
        text: say.t('form-field-needed', field.label),
        status: 'warning',
        locale: say.language,
      });
      return true;
    }
    if (value !== '-') asked.answers[field.name] = value;
    asked.step += 1;
    if (asked.step < asked.form.fields.length) {
      const ttlMs = Math.max(1, asked.expiresAt - Date.now());
      await this.deps.store.set(place.account, JSON.stringify(asked), { ttlMs });
      await this.ask(place.nick, asked);
      return true;
    }
    await this.deps.store.delete(place.account);
    await this.deps.submit(place, asked.formId, asked.answers);
    return true;
  }

  /** Drops the person's open form; true when there was one. */
  async cancel(place: IrcPlace): Promise<boolean> {
    const stored = place.account ? await this.deps.store.get(place.account) : undefined;
    if (!place.account || stored === undefined) return false;
    await this.deps.store.delete(place.account);
    const say = wordsOf(JSON.parse(stored) as AskedForm);
    await this.deps.post(place.nick, { text: say.t('form-cancelled'), status: 'info', locale: say.language });
    return true;
  }
}
