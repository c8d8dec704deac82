/** The terminal chat (`deckhand shell`, and `start` with no platform configured). */
export { answersFrom, parseAnswers } from '../../adapters/shell/answers';

import { TERMINAL } from '../../adapters/platforms';
import { ShellAdapter, type ShellAdapterOptions } from '../../adapters/shell/shell-adapter';
import { QueueTailService } from '../queue/tail-service';
import type { App } from './app';

/** What the terminal chat reads and writes: its streams, its user, its files and a script's answers. */
export type ShellIo = Pick<
  ShellAdapterOptions,
  'input' | 'output' | 'interactive' | 'userName' | 'filesDir' | 'answers'
>;

/** The terminal chat, registered as the terminal platform's messenger. */
export function createShell(app: App, io: ShellIo): ShellAdapter {
  const tails = app.services.tails;
  const shell = new ShellAdapter({
    runner: app.runner,
    watches: app.services.watches,
    ...(app.services.languages ? { languages: app.services.languages } : {}),
    ...(tails instanceof QueueTailService ? { stopTails: () => tails.stopAll() } : {}),
    ...io,
  });
  app.messengers.register(TERMINAL.name, shell);
  return shell;
}
