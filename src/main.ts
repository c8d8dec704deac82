/**
 * `deckhand`: reads the command line, then loads only what the chosen command needs — `--help`,
 * `--version` and a mistyped command load nothing else; `doctor` and `status` never load a chat SDK or
 * an emulator (each command's module is imported when it runs, and the build keeps them apart).
 */
import { DOCTOR_USAGE, type Parsed, parseCommandLine, USAGE, version } from './cli/args';

type Run = Extract<Parsed, { kind: 'run' }>;

/** Whether a command ran that may have opened loggers (their lines are flushed before exiting). */
let loggersMayExist = false;

async function main(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(argv);
  switch (parsed.kind) {
    case 'help':
      process.stdout.write(parsed.topic === 'doctor' ? DOCTOR_USAGE : USAGE);
      return 0;
    case 'version':
      process.stdout.write(`deckhand ${version()}\n`);
      return 0;
    case 'error':
      process.stderr.write(
        `deckhand: ${parsed.message} Run \`deckhand --help\` for the commands.\n\n${USAGE}`,
      );
      return 2;
    case 'run':
      loggersMayExist = true;
      return run(parsed);
  }
}

async function run(args: Run): Promise<number> {
  // doctor reports a bad configuration as its own failed checks.
  if (args.command === 'doctor') {
    return (await import('./cli/doctor')).runDoctor(process.env, { sandboxFlag: args.sandbox });
  }
  const { loadConfig, wantsSandbox } = await import('./config');
  const config = loadConfig();
  const sandbox = wantsSandbox(config, args.sandbox);
  const interactive = Boolean(process.stdin.isTTY) && !args.script;
  switch (args.command) {
    case 'start':
    case 'shell': {
      const { describePlatformProblems, platformProblems, runnablePlatforms } = await import(
        './wiring/platforms'
      );
      const problems = args.command === 'start' ? platformProblems(config, args.role) : [];
      if (problems.length > 0) {
        process.stderr.write(`${describePlatformProblems(problems)}\n`);
        return 2;
      }
      const platforms = args.command === 'start' ? runnablePlatforms(config) : [];
      const { redisPreflight } = await import('./wiring/redis-preflight');
      const failure = redisPreflight({
        redisUrl: config.REDIS_URL ?? config.REDIS_SENTINELS[0] ?? config.REDIS_CLUSTER_NODES[0],
        platformsConfigured: platforms,
        say: (line) => process.stderr.write(`${line}\n`),
      });
      if (failure) {
        process.stderr.write(`${failure.message}\n`);
        return failure.code;
      }
      if (platforms.length > 0 && args.as !== undefined) {
        process.stderr.write(
          'deckhand start: --as is for the terminal chat (deckhand shell); with a chat platform, each user acts as themselves.\n',
        );
        return 2;
      }
      if (platforms.length > 0) {
        const { runStart } = await import('./cli/start');
        return runStart({ config, sandbox, role: args.role });
      }
      const { runShell } = await import('./cli/shell');
      return runShell({
        config,
        sandbox,
        waitSeconds: args.waitSeconds,
        interactive,
        answers: args.answers,
        as: args.as,
        fromStart: args.command === 'start',
      });
    }
    case 'sandbox':
      return (await import('./wiring/sandbox-standalone')).runSandbox(config);
    case 'status':
      return (await import('./wiring/status')).runStatus(config);
    case 'manifest':
      return (await import('./cli/manifest')).runManifest(config, args.rest[0]);
    case 'register':
      return (await import('./cli/manifest')).runRegister(config, args.rest[0], args.guild);
  }
}

/** Exits once every log line is written (a file destination may still be opening). */
async function exit(code: number): Promise<never> {
  if (loggersMayExist) await (await import('./log')).flushLogs();
  process.exit(code);
}

main(process.argv.slice(2)).then(
  (code) => exit(code),
  async (error: unknown) => {
    const { ConfigError } = await import('./config');
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return exit(2);
    }
    process.stderr.write(`deckhand: ${error instanceof Error ? error.message : String(error)}\n`);
    return exit(1);
  },
);
