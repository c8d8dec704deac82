import { parseArgs } from 'node:util';
import { runManifest, runRegister } from './cli/manifest';
import { runShell } from './cli/shell';
import { runStart } from './cli/start';
import { runStatus } from './cli/status';
import { ConfigError, loadConfig, wantsSandbox } from './config';
import { flushLogs } from './log';
import { configuredPlatforms, redisPreflight, runSandbox } from './wiring';

const USAGE = `Usage: deckhand <command> [options]

Commands:
  start     Serve the configured chat platforms (Slack, Discord, Telegram); with none, open the terminal chat
  shell     Open the terminal chat (reads a script from stdin when it is not a terminal)
  sandbox   Run the embedded service emulators on their own and print their addresses
  status    Print the queues and the active watches (reads REDIS_URL)
  manifest [slack|discord|telegram|all]   Write the manifests generated from the commands to manifest/
  register <discord|telegram> [--guild ID]   Register the commands with the platform

Options:
  --sandbox      Use the embedded emulators for every external service (same as SANDBOX=1)
  --wait N       shell with a script: wait up to N seconds for started work to finish (default 0)
  --role R       start: web (receive platform traffic), worker (run queued work) or all (default)
  -h, --help     Show this help
`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      sandbox: { type: 'boolean', default: false },
      role: { type: 'string', default: 'all' },
      guild: { type: 'string' },
      wait: { type: 'string', default: '0' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const command = positionals[0] ?? 'start';
  if (values.help || command === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const waitSeconds = Number(values.wait);
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0) {
    process.stderr.write(`--wait must be a number of seconds, got "${values.wait}".\n`);
    return 2;
  }
  const role = values.role;
  if (role !== 'web' && role !== 'worker' && role !== 'all') {
    process.stderr.write(`--role must be web, worker or all, got "${role}".\n`);
    return 2;
  }
  const config = loadConfig();
  const sandbox = wantsSandbox(config, values.sandbox);
  if (command === 'start' || command === 'shell') {
    const failure = redisPreflight({
      redisUrl: config.REDIS_URL,
      platformsConfigured: command === 'start' ? configuredPlatforms(config) : [],
      say: (line) => process.stderr.write(`${line}\n`),
    });
    if (failure) {
      process.stderr.write(`${failure.message}\n`);
      return failure.code;
    }
  }
  switch (command) {
    case 'start':
      if (configuredPlatforms(config).length > 0) return runStart({ config, sandbox, role });
      return runShell({ config, sandbox, waitSeconds, interactive: Boolean(process.stdin.isTTY) });
    case 'shell':
      return runShell({ config, sandbox, waitSeconds, interactive: Boolean(process.stdin.isTTY) });
    case 'sandbox':
      return runSandbox(config);
    case 'status':
      return runStatus(config);
    case 'manifest':
      return runManifest(config, positionals[1]);
    case 'register':
      return runRegister(config, positionals[1], values.guild);
    default:
      process.stderr.write(`Unknown command "${command}".\n\n${USAGE}`);
      return 2;
  }
}

/** Exits once every log line is written (a file destination may still be opening). */
async function exit(code: number): Promise<never> {
  await flushLogs();
  process.exit(code);
}

main(process.argv.slice(2)).then(
  (code) => exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return exit(2);
    }
    process.stderr.write(`deckhand: ${error instanceof Error ? error.message : String(error)}\n`);
    return exit(1);
  },
);
