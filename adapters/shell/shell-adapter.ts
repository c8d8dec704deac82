import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { CardSurface } from '../../src/core/card-surface';
import type { Invocation, MessageHandle } from '../../src/core/command';
import type { CommandRunner } from '../../src/core/command-runner';
import { conversationId } from '../../src/core/conversation';
import type { IncomingFile } from '../../src/core/files';
import type { FormSpec } from '../../src/core/forms';
import { invocationLanguages, type LanguageStore } from '../../src/core/languages';
import type { Messenger } from '../../src/core/messenger';
import type { Card } from '../../src/core/reply';
import type { WatchService } from '../../src/core/watch';
import { type Translator, t, translator } from '../../src/i18n/translate';
import { checkAnswers, type FormAnswerSource } from './answers';
import { localFile, takeFileFlags } from './attachments';
import { CardButtonNumbers } from './button-numbers';
import { askForm, type FormClosed, MutableOutput } from './forms';
import { readShellLine } from './line';
import { ANSI, type Palette, PLAIN, renderCardText } from './render';

/** How much of a script line is echoed back (a pasted wall of text is named by its start). */
const ECHO_CHARACTERS = 200;

/** A script line as echoed: whole, or its start and its length. */
function echoed(line: string): string {
  const chars = Array.from(line);
  return chars.length <= ECHO_CHARACTERS
    ? line
    : `${chars.slice(0, ECHO_CHARACTERS).join('')}… (${chars.length.toLocaleString('en')} characters)`;
}

/** Options of the terminal chat. */
export interface ShellAdapterOptions {
  runner: CommandRunner<unknown>;
  watches: WatchService;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Interactive terminal (prompt, colours) vs. a script on stdin. */
  interactive: boolean;
  userName: string;
  /** Where attachments (transcripts, long logs) are written. */
  filesDir: string;
  /**
   * In a script: where the answers of a form come from (`--answers`). Without it a form is refused
   * with a message; the lines after a command are never taken as its answers.
   */
  answers?: FormAnswerSource;
  /** Asks every running log tail to stop; resolves with how many (see {@link ShellAdapter.stopTails}). */
  stopTails?: () => Promise<number>;
  /**
   * The `/language` settings: what the terminal itself says (form questions, button and file
   * refusals) is in the reader's language, as their commands' answers are. Without it, English.
   */
  languages?: LanguageStore;
}

/**
 * The shell adapter: a terminal chat with the bot. Lines are commands; buttons are numbered choices
 * (type the number); cards that change are printed again as updates. With a script on stdin it runs
 * each line, then waits for the work it started (see {@link ShellAdapter.waitForWork}).
 */
export class ShellAdapter implements Messenger {
  readonly conversationId = conversationId({ platform: 'shell', workspace: 'local', channel: 'terminal' });
  private readonly palette: Palette;
  private readonly buttons = new CardButtonNumbers();
  private nextMessage = 1;
  private readline: Interface | undefined;
  /** The message printed last in the terminal, and how many screen rows it took. */
  private lastPrinted: { message: string; rows: number } | undefined;
  /**
   * Forms a command opened, asked once it returns, for the user who opened them; in a script with
   * their answers from `--answers` already checked.
   */
  private readonly pendingForms: {
    formId: string;
    form: FormSpec;
    user: string;
    answers?: Record<string, string>;
  }[] = [];
  /** While a form question waits for an answer: ends it without one. */
  private closeQuestion: ((closed: FormClosed) => void) | undefined;
  /** While a line runs (interactive): messages are printed without redrawing the prompt. */
  private busy = false;
  /** In a script: reads the next input line (form answers come from it). */
  private nextScriptLine: (() => Promise<string | undefined>) | undefined;
  /** The terminal output behind readline, muted while a secret is typed. */
  private mutable: MutableOutput | undefined;

  constructor(private readonly options: ShellAdapterOptions) {
    this.palette = options.interactive ? ANSI : PLAIN;
  }

  /**
   * The invocation context of the terminal user, or of `as` (a line run as another user), in a
   * private conversation with the bot.
   */
  invocation(as?: string): Invocation {
    const name = as ?? this.options.userName;
    return {
      user: { platform: 'shell', id: name, name, workspace: 'local' },
      conversation: { platform: 'shell', workspace: 'local', channel: 'terminal' },
      conversationId: this.conversationId,
      isPrivate: true,
    };
  }

  /** The words of the terminal user (or of `as`): their `/language`, else the terminal's, else English. */
  private async wordsOf(as?: string): Promise<Translator> {
    if (!this.options.languages) return translator(undefined);
    const languages = await invocationLanguages(this.invocation(as), this.options.languages);
    return translator(languages.reader);
  }

  async post(_conversationId: string, card: Card): Promise<MessageHandle> {
    const number = this.nextMessage++;
    // `card <n>` stays as typed: it is what `press <n> <label>` names (the terminal's command language).
    this.print(card, `card ${number}`, String(number));
    if (card.closesForm && this.closeQuestion) {
      this.closeQuestion({
        closed: t(card.locale, 'card-shell-form-closed'),
      });
    }
    return { platform: 'shell', conversationId: this.conversationId, ref: { message: String(number) } };
  }

  /** The terminal is one person's conversation already: direct messages are printed in it. */
  async openDirect(): Promise<string> {
    return this.conversationId;
  }

  async update(handle: MessageHandle, card: Card): Promise<void> {
    const number = handle.ref.message ?? '?';
    this.print(card, (await this.wordsOf()).t('shell-card-updated', number), number);
  }

  /** Runs one input line: a command, or the number of a button to press. */
  async runLine(line: string): Promise<void> {
    if (!line.trim() || line.trim().startsWith('#')) return;
    const words = await this.wordsOf();
    const read = readShellLine(line, words);
    if (read.kind === 'skip') return;
    if (read.kind === 'error') {
      this.write(read.message);
      return;
    }
    const user = read.as ?? this.options.userName;
    const say = read.as ? await this.wordsOf(read.as) : words;
    const surface: CardSurface = {
      reply: (card) => this.post(this.conversationId, card),
      update: (handle, card) => this.update(handle, card),
      openForm: (formId, form) => this.openForm(formId, form, user),
    };
    if (read.kind !== 'command') {
      const found =
        read.kind === 'press'
          ? this.buttons.press(read.number, say)
          : this.buttons.pressLabel(read.card, read.label, say);
      if (!found.ok) {
        this.write(found.message);
        return;
      }
      await this.options.runner.handleAction(found.actionId, this.invocation(read.as), surface);
      await this.fillForms(surface);
      return;
    }
    const text = read.text;
    const flags = takeFileFlags(text);
    if (flags.missingPath) {
      this.write(say.t('shell-file-needs-path'));
      return;
    }
    const files = flags.paths.map((path) => localFile(path, undefined, say));
    const problem = files.find((file) => typeof file === 'string');
    if (problem !== undefined) {
      this.write(say.t('shell-nothing-done', problem));
      return;
    }
    const command = flags.text.startsWith('/') ? flags.text : `/${flags.text}`;
    const invocation = this.invocation(read.as);
    const attached = files.filter((file): file is IncomingFile => typeof file !== 'string');
    await this.options.runner.handleText(
      command,
      attached.length ? { ...invocation, files: attached } : invocation,
      surface,
    );
    await this.fillForms(surface);
  }

  /**
   * A form a command opens: asked once the command returns. In a script its answers must come from
   * `--answers`: without them (or with a required one missing) the form is not opened, which the
   * command hears (it answers as where there are no forms) after the line saying so.
   */
  private async openForm(formId: string, form: FormSpec, user: string): Promise<boolean> {
    if (!this.nextScriptLine) {
      this.pendingForms.push({ formId, form, user });
      return true;
    }
    const given = this.options.answers ? await this.options.answers(form) : undefined;
    const checked = checkAnswers(form, given, await this.wordsOf(user));
    if (!checked.ok) {
      this.write(checked.message);
      return false;
    }
    this.pendingForms.push({ formId, form, user, answers: checked.values });
    return true;
  }

  /** Asks the forms the last command opened, field by field (or from `--answers`), and submits them. */
  private async fillForms(surface: CardSurface): Promise<void> {
    for (let next = this.pendingForms.shift(); next; next = this.pendingForms.shift()) {
      const { form, answers } = next;
      const words = await this.wordsOf(next.user);
      let values: Record<string, string> | undefined;
      if (answers) {
        const shown = form.fields
          .filter((f) => answers[f.name] !== undefined)
          .map((f) => `${f.label}: ${f.secret ? words.t('shell-answers-hidden') : answers[f.name]}`);
        this.say(`${words.t('shell-answers-from-option', form.title)}\n${shown.join('\n')}`);
        values = answers;
      } else {
        values = await askForm(
          form,
          (q, secret) => this.ask(q, secret),
          (t) => this.say(t),
          words,
        );
        this.lastPrinted = undefined;
      }
      if (values)
        await this.options.runner.handleForm(next.formId, values, this.invocation(next.user), surface);
    }
  }

  /**
   * One answer, typed at the prompt (a secret one not echoed). A note that the value was stored
   * another way (the secret page) ends the question without an answer, so the next line typed is a
   * command again, never taken for the secret.
   */
  private async ask(question: string, secret: boolean): Promise<string | FormClosed | undefined> {
    const rl = this.readline;
    if (!rl) return undefined;
    const mutable = this.mutable;
    const hidden = secret && mutable !== undefined && this.options.interactive;
    const aborter = new AbortController();
    if (hidden) {
      this.options.output.write(question);
      mutable.muted = true;
    }
    try {
      return await new Promise<string | FormClosed>((resolve) => {
        this.closeQuestion = (closed) => {
          aborter.abort();
          resolve(closed);
        };
        rl.question(hidden ? '' : question, { signal: aborter.signal }, resolve);
      });
    } finally {
      this.closeQuestion = undefined;
      if (hidden) {
        mutable.muted = false;
        this.options.output.write('\n');
      }
    }
  }

  /** Prints a line of a form dialogue. */
  private say(text: string): void {
    this.options.output.write(`${text}\n`);
  }

  /** Reads commands from a script until end of input; resolves with the number of commands run. */
  async runScript(): Promise<number> {
    let commands = 0;
    const lines = createInterface({ input: this.options.input, crlfDelay: Number.POSITIVE_INFINITY });
    const iterator = lines[Symbol.asyncIterator]();
    this.nextScriptLine = async () => {
      const next = await iterator.next();
      return next.done ? undefined : next.value;
    };
    try {
      for (let line = await this.nextScriptLine(); line !== undefined; line = await this.nextScriptLine()) {
        if (line.trim() && !line.trim().startsWith('#')) {
          this.write(`> ${echoed(line.trim())}`);
          commands += 1;
        }
        await this.runLine(line);
      }
    } finally {
      this.nextScriptLine = undefined;
      lines.close();
    }
    return commands;
  }

  /** Runs the interactive chat until `exit`, `quit` or end of input. */
  async runInteractive(): Promise<void> {
    this.mutable = new MutableOutput(this.options.output);
    const rl = createInterface({
      input: this.options.input,
      output: this.mutable,
      prompt: 'deckhand> ',
      terminal: (this.options.output as NodeJS.WriteStream).isTTY === true,
    });
    this.readline = rl;
    const words = await this.wordsOf();
    this.options.output.write(
      `${this.palette.bold}${words.t('shell-welcome-title')}${this.palette.reset} ${words.t('shell-welcome')}\n`,
    );
    rl.prompt();
    for await (const line of rl) {
      this.lastPrinted = undefined;
      if (/^(exit|quit|\/exit|\/quit)$/i.test(line.trim())) break;
      this.busy = true;
      try {
        await this.runLine(line);
      } finally {
        this.busy = false;
      }
      rl.prompt();
    }
    this.readline = undefined;
    rl.close();
  }

  /**
   * Waits until no watch is running or `seconds` pass. Resolves true when all work finished.
   */
  async waitForWork(seconds: number, pollMs = 100): Promise<boolean> {
    const deadline = Date.now() + seconds * 1000;
    while (Date.now() < deadline) {
      if ((await this.options.watches.activeCount()) === 0) return true;
      await new Promise((done) => setTimeout(done, pollMs));
    }
    return (await this.options.watches.activeCount()) === 0;
  }

  /**
   * Stops the log tails still running (each posts its transcript, printed here) and waits up to
   * `seconds` for them to end; resolves with how many were stopped.
   */
  async stopTails(seconds = 5, pollMs = 100): Promise<number> {
    const stopped = (await this.options.stopTails?.()) ?? 0;
    const deadline = Date.now() + seconds * 1000;
    while (stopped > 0 && Date.now() < deadline && (await this.options.watches.activeCount()) > 0) {
      await new Promise((done) => setTimeout(done, pollMs));
    }
    return stopped;
  }

  private print(card: Card, label: string, message: string): void {
    const numbers = this.buttons.number(message, card.buttons ?? []);
    const files = (card.attachments ?? []).map((file) => this.saveAttachment(file.filename, file.content));
    const text = renderCardText({ ...card, attachments: [] }, this.palette, numbers);
    const saved = files.map((path) => `  ${t(card.locale, 'card-shell-file-written', path)}`);
    if (card.image?.pngBase64) {
      const path = this.saveAttachment(card.image.filename, Buffer.from(card.image.pngBase64, 'base64'));
      saved.unshift(`  ${t(card.locale, 'card-shell-picture-written', path)}`);
    }
    const privately = card.visibility === 'private' ? ` (${t(card.locale, 'card-private')})` : '';
    this.write(
      [`${this.palette.dim}${label}${privately}${this.palette.reset}`, text, ...saved].join('\n'),
      message,
    );
  }

  private saveAttachment(filename: string, content: string | Buffer): string {
    mkdirSync(this.options.filesDir, { recursive: true });
    const safe = filename.replace(/[^A-Za-z0-9._-]/g, '_');
    const path = resolve(this.options.filesDir, `${Date.now()}-${safe}`);
    writeFileSync(path, content);
    return path;
  }

  /**
   * Prints above the prompt. In a terminal, a new version of the message printed last replaces it in
   * place (cursor up, clear), so a progress card updates on the spot instead of scrolling.
   */
  private write(text: string, message?: string): void {
    const rl = this.readline;
    if (rl && this.options.interactive) {
      const out = this.options.output;
      const redraw = message !== undefined && this.lastPrinted?.message === message;
      out.write(redraw ? `\r\x1b[${this.lastPrinted?.rows}A\x1b[J` : '\r\x1b[K');
      out.write(`${text}\n`);
      this.lastPrinted = message === undefined ? undefined : { message, rows: this.rowsOf(text) };
      // While a line runs, the prompt comes back once it is done (runInteractive), not per message.
      if (!this.busy) rl.prompt(true);
      return;
    }
    this.options.output.write(`${text}\n`);
  }

  private rowsOf(text: string): number {
    const columns = (this.options.output as NodeJS.WriteStream).columns || 80;
    const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
    return plain
      .split('\n')
      .reduce((rows, line) => rows + Math.max(1, Math.ceil(Array.from(line).length / columns)), 0);
  }
}
