/** The terminal chat (`deckhand shell`, and `start` with no platform configured). */
import type { FormAnswerSource } from '../../adapters/shell/answers';

export { answersFrom, parseAnswers } from '../../adapters/shell/answers';

import { TERMINAL } from '../../adapters/platforms';
import { ShellAdapter } from '../../adapters/shell/shell-adapter';
import { QueueTailService } from '../queue/tail-service';
import type { App } from './app';

/** What the terminal chat reads and writes. */
export interface ShellIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  interactive: boolean;
  userName: string;
  /** Where files the user attaches are looked for. */
  filesDir: string;
  /** In a script: the answers of forms (`--answers`). */
  answers?: FormAnswerSource;
}

/** The terminal chat, registered as the terminal platform's messenger. */
export function createShell(app: App, io: ShellIo): ShellAdapter {
  const tails = app.services.tails;
  const shell = new ShellAdapter({
    runner: app.runner,
    watches: app.services.watches,
    ...(tails instanceof QueueTailService ? { stopTails: () => tails.stopAll() } : {}),
    ...io,
  });
  app.messengers.register(TERMINAL.name, shell);
  return shell;
}
