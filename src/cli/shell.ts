import { resolve } from 'node:path';
import type { Config } from '../config';
import { conversationId } from '../core/conversation';
import type { LanguageStore } from '../core/languages';
import { type Translator, translator } from '../i18n/translate';
import { createLogger } from '../log';
import { createApp } from '../wiring/app';
import { chatEnvPatterns, listed, TERMINAL_PLATFORM } from '../wiring/platforms';
import { publishSandboxNotes, sandboxNotes } from '../wiring/sandbox-notes';
import { listenWeb, openWeb, StartupError } from '../wiring/serve';
import { describeServiceModes } from '../wiring/service-modes';
import { answersFrom, createShell, parseAnswers } from '../wiring/shell';
import { listenForStop, signalExitCode, stopWithin } from './lifecycle';

/** Options of {@link runShell}. */
export interface ShellOptions {
  config: Config;
  sandbox: boolean;
  /** After a script ends, wait this many seconds for started work (watches, log tails) to finish. */
  waitSeconds: number;
  interactive: boolean;
  /** `--answers` values: the answers of forms in a script. */
  answers?: readonly string[];
  /**
   * `--as`: the terminal user, with only the rights ADMINS and TOOL_MAINTAINERS give them (without
   * it, the terminal user is an admin).
   */
  as?: string | undefined;
  /** `deckhand start` chose the terminal chat because no chat platform is configured. */
  fromStart?: boolean;
}

/**
 * What `start` says when it runs the terminal chat on a script instead of serving a platform (before
 * Deckhand can read the reader's language: in English).
 */
function noPlatformScript(): string {
  return translator('en').t('terminal-no-platform-script', listed(chatEnvPatterns()));
}

/** The terminal's conversation (the shell adapter's). */
const TERMINAL_CONVERSATION = conversationId({
  platform: TERMINAL_PLATFORM,
  workspace: 'local',
  channel: 'terminal',
});

/**
 * The terminal reader's language: their own `/language`, else the terminal conversation's, else
 * English (a terminal says no language of its own).
 */
async function terminalReader(languages: LanguageStore | undefined, userName: string): Promise<Translator> {
  if (!languages) return translator('en');
  const read = async () => [
    await languages.ofUser(`${TERMINAL_PLATFORM}:local:${userName}`),
    await languages.ofConversation(TERMINAL_CONVERSATION),
  ];
  const [own, here] = await read().catch(() => [undefined, undefined]);
  return translator(own ?? here);
}

/** The line saying whom the terminal chat acts as with `--as`, and which rights that gives. */
function actingAs(user: string, config: Config, say: Translator): string {
  const id = `${TERMINAL_PLATFORM}:${user}`;
  const admin = config.ADMINS.includes(id);
  const tools = config.TOOL_MAINTAINERS.filter((entry) => entry.endsWith(`=${id}`)).map(
    (entry) => entry.split('=')[0] as string,
  );
  if (admin) return say.t('terminal-acting-as-admin', id);
  if (tools.length) return say.t('terminal-acting-as-maintainer', id, tools.join(', '));
  return say.t('terminal-acting-as-nobody', id);
}

/**
 * Runs the terminal chat: interactive when stdin is a TTY, otherwise each input line as a command,
 * then waits for the work it started. Resolves with the exit code: 1 when the wait ran out with work
 * still running (its log tails are stopped), 128 + the signal's number after SIGINT/SIGTERM (the
 * embedded Redis is stopped either way).
 */
export async function runShell(options: ShellOptions): Promise<number> {
  const { config } = options;
  const answers = parseAnswers(options.answers ?? []);
  if (!answers.ok) {
    process.stderr.write(`${answers.message}\n`);
    return 2;
  }
  const logFile = config.LOG_FILE ?? resolve(config.DATA_DIR, 'deckhand.log');
  const logger = createLogger({ level: config.LOG_LEVEL, file: logFile });
  const userName = options.as ?? config.SHELL_USER ?? process.env.USER ?? 'operator';
  const out = process.stdout;
  if (options.fromStart && !options.interactive) process.stderr.write(`${noPlatformScript()}\n`);
  const stop = listenForStop();
  const app = await createApp({
    config,
    logger,
    sandbox: options.sandbox,
    extraAdmins: options.as === undefined ? [`${TERMINAL_PLATFORM}:${userName}`] : [],
  });
  const web = openWeb(app);
  web.healthCheck(TERMINAL_PLATFORM, async () => true);
  let code = 0;
  let unpublish = async () => {};
  try {
    // OAuth and secret-form links point at this server: a port that cannot be used is an error.
    const webPort = await listenWeb(app, web);
    const shell = createShell(app, {
      input: process.stdin,
      output: out,
      interactive: options.interactive,
      userName,
      filesDir: resolve(config.DATA_DIR, 'files'),
      answers: answersFrom(answers.sets),
    });
    app.startWorkers();

    const notes = sandboxNotes(app, config.SANDBOX_STEP_MS);
    unpublish = await publishSandboxNotes(
      app.redis.redis,
      config.REDIS_KEY_PREFIX,
      notes,
      app.emulators.toolhost?.externalUrl,
    );
    logger.info({ services: app.modes }, 'services');
    const say = await terminalReader(app.services.languages, userName);
    const services = describeServiceModes(app.modes, say);
    if (options.as !== undefined) notes.push(actingAs(userName, config, say));
    if (options.interactive) {
      const where = say.t('terminal-logs-and-port', logFile, String(webPort));
      const hint = app.modes.toolhost === 'emulator' ? ` ${say.t('terminal-try-deploy')}` : '';
      out.write(`${services}${hint} ${where}\n`);
      for (const note of notes) out.write(`${note}\n`);
    } else {
      process.stderr.write(`${[services, ...notes].join('\n')}\n`);
    }
    const session = (async () => {
      if (options.interactive) {
        await shell.runInteractive();
        return 0;
      }
      const commands = await shell.runScript();
      if (options.fromStart && commands === 0) {
        process.stderr.write(`${say.t('terminal-nothing-to-do')}\n`);
        return 1;
      }
      const finished = await shell.waitForWork(options.waitSeconds);
      if (finished) return 0;
      const stopped = await shell.stopTails();
      const waited = String(options.waitSeconds);
      out.write(
        `${stopped > 0 ? say.t('terminal-stopped-waiting-tails', waited, stopped) : say.t('terminal-stopped-waiting', waited)}\n`,
      );
      return 1;
    })();
    code = await Promise.race([session, stop.signal.then(signalExitCode)]);
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    process.stderr.write(`${error.message}\n`);
    code = error.exitCode;
  } finally {
    await stopWithin(
      [
        ['forget the sandbox notes', () => unpublish()],
        ['close the web server', () => web.close()],
        // Workers, queues, emulators, then the embedded Redis.
        ['close the app', () => app.close()],
      ],
      logger,
    );
    stop.dispose();
    logger.flush();
  }
  return code;
}
