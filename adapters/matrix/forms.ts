/**
 * Forms as conversations in the person's direct room with the bot: Matrix has no modals, so each
 * field is asked in turn and the person's next message there answers it (`!cancel` stops; an empty
 * optional field is skipped with `-`). A form with a secret field is not asked here at all — room
 * text sits on the homeserver in plain text (the bot does no end-to-end encryption) — so the command
 * offers its one-time secret page instead. When the last answer arrives, the form's command runs as
 * the person, through the core's form handling.
 */
import type { Logger } from 'pino';
import type { FormSpec } from '../../src/core/forms';
import type { KeyValueStore } from '../../src/core/host';
import type { Card } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import type { BotRooms } from './rooms';

/** A form being asked, as stored (sealed) under the person's user id. */
interface AskedForm {
  formId: string;
  form: FormSpec;
  roomId: string;
  step: number;
  answers: Record<string, string>;
  expiresAt: number;
  /** The language the form is asked in (the person's, when it opened). */
  language?: string;
}

/** The words a form is asked in (English for one stored before it had a language). */
function wordsOf(asked: AskedForm): Translator {
  return translator(asked.language);
}

/** What the form flow needs. */
export interface MatrixFormDeps {
  /** Sealed: answers are kept encrypted between steps. */
  store: KeyValueStore;
  rooms: BotRooms;
  /** Posts a card in a room. */
  post(roomId: string, card: Card): Promise<unknown>;
  timeoutMs: number;
  logger: Logger;
  /** Runs a completed form as `userId`. */
  submit(userId: string, roomId: string, formId: string, values: Record<string, string>): Promise<void>;
}

/** Step-by-step forms in direct rooms (see the module comment). */
export class MatrixForms {
  constructor(private readonly deps: MatrixFormDeps) {}

  /**
   * Starts asking `form` in `userId`'s direct room, in `language` (the person's); false when it
   * cannot be asked in a room.
   */
  async open(formId: string, form: FormSpec, userId: string, language?: string): Promise<boolean> {
    if (form.fields.some((field) => field.secret)) return false;
    const roomId = await this.deps.rooms.directRoom(userId);
    const asked: AskedForm = {
      formId,
      form,
      roomId,
      step: 0,
      answers: {},
      expiresAt: Date.now() + this.deps.timeoutMs,
      ...(language ? { language } : {}),
    };
    await this.deps.store.set(userId, JSON.stringify(asked), { ttlMs: this.deps.timeoutMs });
    await this.ask(asked);
    return true;
  }

  private async ask(asked: AskedForm): Promise<void> {
    const field = asked.form.fields[asked.step];
    if (!field) return;
    const say = wordsOf(asked);
    const first = asked.step === 0;
    const head = first
      ? `${asked.form.intro ? `${asked.form.intro}\n` : ''}${say.t('matrix-form-intro')}\n`
      : '';
    const optional = field.optional ? ` ${say.t('form-step-optional')}` : '';
    const example = field.placeholder ? ` ${say.t('form-step-example', field.placeholder)}` : '';
    const count = say.t('form-step-count', asked.step + 1, asked.form.fields.length);
    await this.deps.post(asked.roomId, {
      title: first ? asked.form.title : undefined,
      text: `${head}${field.label}${optional}${example} — ${count}`,
      status: 'info',
      locale: say.language,
    });
  }

  /** Takes a message of `userId` in `roomId` as the answer to their open form; false when there is none. */
  async answer(userId: string, roomId: string, text: string): Promise<boolean> {
    const stored = await this.deps.store.get(userId);
    if (!stored) return false;
    const asked = JSON.parse(stored) as AskedForm;
    if (asked.roomId !== roomId || Date.now() > asked.expiresAt) return false;
    const field = asked.form.fields[asked.step];
    if (!field) return false;
    const value = text.trim();
    if (value === '' || (value === '-' && !field.optional)) {
      const say = wordsOf(asked);
      await this.deps.post(roomId, {
        text: say.t('form-field-needed', field.label),
        status: 'warning',
        locale: say.language,
      });
      return true;
    }
    if (value !== '-') asked.answers[field.name] = field.multiline ? text : value;
    asked.step += 1;
    if (asked.step < asked.form.fields.length) {
      await this.deps.store.set(userId, JSON.stringify(asked), {
        ttlMs: Math.max(1, asked.expiresAt - Date.now()),
      });
      await this.ask(asked);
      return true;
    }
    await this.deps.store.delete(userId);
    await this.deps.submit(userId, roomId, asked.formId, asked.answers);
    return true;
  }

  /** Drops the person's open form; true when there was one. */
  async cancel(userId: string, roomId: string): Promise<boolean> {
    const stored = await this.deps.store.get(userId);
    const asked = stored ? (JSON.parse(stored) as AskedForm) : undefined;
    if (!asked || asked.roomId !== roomId) return false;
    await this.deps.store.delete(userId);
    const say = wordsOf(asked);
    await this.deps.post(roomId, { text: say.t('form-cancelled'), status: 'info', locale: say.language });
    return true;
  }
}
