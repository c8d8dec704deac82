/** The interactive terminal chat (`deckhand shell`) on a test app, typed into line by line. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { ShellAdapter } from '../../adapters/shell/shell-adapter';
import type { TestApp } from './app';
import { waitFor } from './wait';

/** A fake terminal `columns` wide: everything written, as text. */
class Terminal extends Writable {
  text = '';
  readonly isTTY = true;
  constructor(readonly columns: number) {
    super();
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** Without ANSI control sequences and carriage returns: what the screen shows, roughly. */
export const plain = (text: string) => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').replace(/\r/g, '');

/** A running terminal chat. */
export interface TerminalChat {
  /** Everything written to the terminal so far. */
  output: { readonly text: string };
  /** Types `line` once `after` has been shown since the last line typed. */
  type(line: string, after: string): Promise<void>;
  /** What has been shown since the last line typed, without control sequences. */
  since(): string;
  /** Waits until what has been shown since the last line typed matches `pattern` (shows it all if it never does). */
  see(pattern: RegExp): Promise<unknown>;
  /** Types `exit` and waits for the chat to end. */
  end(): Promise<void>;
}

/**
 * Starts the interactive terminal chat of the user `tester` on `t`'s app, `columns` wide, registered
 * as the app's shell messenger (as `deckhand shell` does).
 */
export function startTerminalChat(t: TestApp, columns = 200): TerminalChat {
  const input = new PassThrough();
  const output = new Terminal(columns);
  const shell = new ShellAdapter({
    runner: t.app.runner as never,
    watches: t.app.services.watches,
    input,
    output,
    interactive: true,
    userName: 'tester',
    filesDir: mkdtempSync(join(tmpdir(), 'deckhand-shell-')),
  });
  t.app.messengers.register('shell', shell);
  const running = shell.runInteractive();
  let mark = 0;
  const since = () => plain(output.text.slice(mark));
  return {
    output,
    since,
    async type(line, after) {
      await waitFor(() => plain(output.text.slice(mark)).includes(after), 30_000);
      mark = output.text.length;
      input.write(`${line}\n`);
    },
    see: (pattern) =>
      waitFor(() => pattern.test(since()), 30_000).catch((error) => {
        throw new Error(`${error}\n${plain(output.text)}`);
      }),
    async end() {
      input.end('exit\n');
      await running;
    },
  };
}
