import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { Invocation, MessageHandle } from '../../src/core/command';
import { conversationId } from '../../src/core/conversation';
import type { CardSurface, Dispatcher } from '../../src/core/dispatch';
import type { Messenger } from '../../src/core/messenger';
import type { Card } from '../../src/core/reply';
import type { WatchService } from '../../src/core/watch';
import { ANSI, type Palette, PLAIN, renderCardText } from './render';

/** Options of the terminal chat. */
export interface ShellAdapterOptions {
  dispatcher: Dispatcher<unknown>;
  watches: WatchService;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Interactive terminal (prompt, colours) vs. a script on stdin. */
  interactive: boolean;
  userName: string;
  /** Where attachments (transcripts, long logs) are written. */
  filesDir: string;
}

/**
 * The shell adapter: a terminal chat with the bot. Lines are commands; buttons are numbered choices
 * (type the number); cards that change are printed again as updates. With a script on stdin it runs
 * each line, then waits for the work it started (see {@link ShellAdapter.waitForWork}).
 */
export class ShellAdapter implements Messenger {
  readonly conversationId = conversationId({ platform: 'shell', workspace: 'local', channel: 'terminal' });
  private readonly palette: Palette;
  private readonly buttons = new Map<number, string>();
  private nextButton = 1;
  private nextMessage = 1;
  private readline: Interface | undefined;
  /** The message printed last in the terminal, and how many screen rows it took. */
  private lastPrinted: { message: string; rows: number } | undefined;

  constructor(private readonly options: ShellAdapterOptions) {
    this.palette = options.interactive ? ANSI : PLAIN;
  }

  /** The invocation context of the terminal user (a private conversation with the bot). */
  invocation(): Invocation {
    return {
      user: { platform: 'shell', id: this.options.userName, name: this.options.userName, workspace: 'local' },
      conversation: { platform: 'shell', workspace: 'local', channel: 'terminal' },
      conversationId: this.conversationId,
      isPrivate: true,
    };
  }

  async post(_conversationId: string, card: Card): Promise<MessageHandle> {
    const number = this.nextMessage++;
    this.print(card, `#${number}`, String(number));
    return { platform: 'shell', conversationId: this.conversationId, ref: { message: String(number) } };
  }

  async update(handle: MessageHandle, card: Card): Promise<void> {
    this.print(card, `#${handle.ref.message ?? '?'} updated`, handle.ref.message ?? '?');
  }

  /** Runs one input line: a command, or the number of a button to press. */
  async runLine(line: string): Promise<void> {
    const text = line.trim();
    if (!text || text.startsWith('#')) return;
    const surface: CardSurface = {
      reply: (card) => this.post(this.conversationId, card),
      update: (handle, card) => this.update(handle, card),
    };
    const pressed = /^(?:\/press\s+)?(\d+)$/.exec(text);
    if (pressed) {
      const actionId = this.buttons.get(Number(pressed[1]));
      if (!actionId) {
        this.write(`There is no button [${pressed[1]}].`);
        return;
      }
      await this.options.dispatcher.handleAction(actionId, this.invocation(), surface);
      return;
    }
    const command = text.startsWith('/') ? text : `/${text}`;
    await this.options.dispatcher.handleText(command, this.invocation(), surface);
  }

  /** Reads commands from a script until end of input. */
  async runScript(): Promise<void> {
    const lines = createInterface({ input: this.options.input, crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      if (line.trim() && !line.trim().startsWith('#')) this.write(`> ${line.trim()}`);
      await this.runLine(line);
    }
  }

  /** Runs the interactive chat until `exit`, `quit` or end of input. */
  async runInteractive(): Promise<void> {
    const rl = createInterface({
      input: this.options.input,
      output: this.options.output,
      prompt: 'deckhand> ',
    });
    this.readline = rl;
    this.write(
      `${this.palette.bold}Deckhand terminal chat.${this.palette.reset} Type /help for commands, a number to press a button, exit to leave.`,
    );
    rl.prompt();
    for await (const line of rl) {
      this.lastPrinted = undefined;
      if (/^(exit|quit|\/exit|\/quit)$/i.test(line.trim())) break;
      await this.runLine(line);
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

  private print(card: Card, label: string, message: string): void {
    const numbers = (card.buttons ?? []).map((button) => {
      const number = this.nextButton++;
      this.buttons.set(number, button.actionId);
      return number;
    });
    const files = (card.attachments ?? []).map((file) => this.saveAttachment(file.filename, file.content));
    const text = renderCardText({ ...card, attachments: [] }, this.palette, numbers);
    const saved = files.map((path) => `  (file written: ${path})`);
    const privately = card.visibility === 'private' ? ' (only you)' : '';
    this.write(
      [`${this.palette.dim}${label}${privately}${this.palette.reset}`, text, ...saved].join('\n'),
      message,
    );
  }

  private saveAttachment(filename: string, content: string): string {
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
      rl.prompt(true);
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
