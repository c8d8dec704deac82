import { resolve } from 'node:path';
import type { Config } from '../config';
import { createLogger } from '../log';
import { createApp } from '../wiring/app';
import { publishSandboxNotes, sandboxNotes } from '../wiring/sandbox-notes';
import { listenWeb, openWeb } from '../wiring/serve';
import { describeServiceModes } from '../wiring/service-modes';
import { answersFrom, createShell, parseAnswers } from '../wiring/shell';

/** Options of {@link runShell}. */
export interface ShellOptions {
  config: Config;
  sandbox: boolean;
  /** After a script ends, wait this many seconds for started work (watches) to finish. */
  waitSeconds: number;
  interactive: boolean;
  /** `--answers` values: the answers of forms in a script. */
  answers?: readonly string[];
}

/**
 * Runs the terminal chat: interactive when stdin is a TTY, otherwise each input line as a command,
 * then waits for the work it started. Resolves with the exit code (1 when the wait ran out).
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
  const userName = config.SHELL_USER ?? process.env.USER ?? 'operator';
  const out = process.stdout;
  const app = await createApp({
    config,
    logger,
    sandbox: options.sandbox,
    extraAdmins: [`shell:${userName}`],
  });
  const web = openWeb(app);
  web.healthCheck('shell', async () => true);
  let webPort: number | undefined;
  try {
    webPort = await listenWeb(app, web);
  } catch (error) {
    logger.warn({ err: error }, 'HTTP server not started');
  }
  const shell = createShell(app, {
    input: process.stdin,
    output: out,
    interactive: options.interactive,
    userName,
    filesDir: resolve(config.DATA_DIR, 'files'),
    answers: answersFrom(answers.sets),
  });
  app.startWorkers();
  const services = describeServiceModes(app.modes);
  const notes = sandboxNotes(app, config.SANDBOX_STEP_MS);
  const unpublish = await publishSandboxNotes(app.redis.redis, config.REDIS_KEY_PREFIX, notes);
  logger.info({ services: app.modes }, 'services');
  if (options.interactive) {
    const hint = app.modes.toolhost === 'emulator' ? ' Try /deploy mytool.' : '';
    out.write(`${services}${hint} Logs: ${logFile}${webPort ? `; HTTP on port ${webPort}` : ''}.\n`);
    for (const note of notes) out.write(`${note}\n`);
  } else {
    process.stderr.write(`${[services, ...notes].join('\n')}\n`);
  }
  let code = 0;
  try {
    if (options.interactive) {
      await shell.runInteractive();
    } else {
      await shell.runScript();
      const finished = await shell.waitForWork(options.waitSeconds);
      if (!finished) {
        out.write(`Stopped waiting after ${options.waitSeconds} s; some work was still running.\n`);
        code = 1;
      }
    }
  } finally {
    await unpublish();
    await web.close();
    await app.close();
    logger.flush();
  }
  return code;
}
