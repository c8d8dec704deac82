import { parseArgs } from 'node:util';
import { CHAT_PLATFORM_NAMES } from '../../adapters/platform-names';
import { deckhandVersion } from '../version';

/** The commands `deckhand` knows. */
export const COMMANDS = [
  'start',
  'shell',
  'sandbox',
  'status',
  'doctor',
  'manifest',
  'register',
  'help',
] as const;

/** One of {@link COMMANDS}. */
export type CommandName = (typeof COMMANDS)[number];

/** `deckhand --help`. */
export const USAGE = `Usage: deckhand <command> [options]

Commands:
  start     Serve the configured chat platforms (${CHAT_PLATFORM_NAMES.join(', ')}); with none, open the terminal chat
  shell     Open the terminal chat (reads a script from stdin when it is not a terminal)
  sandbox   Run the embedded service emulators on their own and print their addresses
  status    Print the queues and the active watches (REDIS_URL, or the embedded Redis of a running Deckhand)
  doctor    Check the configuration, Redis, each platform's credentials and each service (doctor --help)
  manifest [${[...CHAT_PLATFORM_NAMES, 'all'].join('|')}]   Write the manifests generated from the commands to manifest/
  register <platform> [--guild ID]   Register the commands with a platform that keeps a command list

Options:
  --sandbox      Use the embedded emulators for every external service (same as SANDBOX=1)
  --wait N       shell with a script: wait up to N seconds for started work to finish (default 0)
  --script       shell: read commands from stdin as a script even when it is a terminal
  --answers A    shell with a script: answers of the forms commands open, as JSON ({"value":"x"},
                 or a list, one object per form) or name=value pairs (repeatable); without it a
                 script's form is refused, never answered with the next line
  --as USER      terminal chat: act as USER (shell:USER) with the rights ADMINS and TOOL_MAINTAINERS
                 give that user, instead of as an admin; one line can also start with \`as USER\`
  --role R       start: web (receive platform traffic), worker (run queued work) or all (default)
  -v, --version  Print the version
  -h, --help     Show this help
`;

/** `deckhand doctor --help`. */
export const DOCTOR_USAGE = `Usage: deckhand doctor [--sandbox]

Checks what a deployment needs, one line per check: ✓ fine, ✗ with what to do, - does not apply.
  configuration   what each configured chat platform and service still misses, by variable
  Redis           version, eviction policy (noeviction), append-only file
  platforms       each configured platform's credentials (the platform's own who-am-I call)
  services        the tool platform, calendar, media host and source host (each real one is reached)
  PUBLIC_URL      whether PUBLIC_URL/readyz answers
  webhooks        whether each platform's registered webhook or interactions endpoint points at PUBLIC_URL

Exit codes:
  0  every check passed (or does not apply)
  1  a check other than the configuration failed (Redis, credentials, a service, PUBLIC_URL, a webhook)
  2  the configuration is incomplete or invalid (what \`deckhand start\` refuses), whatever else failed

Options:
  --sandbox   Check as \`deckhand start --sandbox\` would run (services without a URL are emulated)
`;

/** What the command line asks for. */
export type Parsed =
  | { kind: 'help'; topic?: 'doctor' }
  | { kind: 'version' }
  | { kind: 'error'; message: string }
  | {
      kind: 'run';
      command: Exclude<CommandName, 'help'>;
      /** Arguments after the command (`manifest <platform>` → `['<platform>']`). */
      rest: string[];
      sandbox: boolean;
      role: 'web' | 'worker' | 'all';
      guild: string | undefined;
      waitSeconds: number;
      /** `--script`: stdin is a script even on a terminal. */
      script: boolean;
      /** `--answers` values, in order. */
      answers: string[];
      /** `--as`: the terminal chat's user, without the admin rights it has by default. */
      as: string | undefined;
    };

/** The version in package.json. */
export function version(): string {
  return deckhandVersion();
}

/** An example of each option that takes a value, for the message when its value is missing. */
const VALUE_EXAMPLES: Record<string, string> = {
  '--role': '--role web',
  '--wait': '--wait 30',
  '--guild': '--guild 123456789012345678',
  '--answers': "--answers 'value=x'",
  '--as': '--as ada',
};

/** A user name `--as` accepts. */
const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/**
 * `--wait -5` reads as the option `-5` to `parseArgs`: a value starting with `-` is joined to its
 * option (`--wait=-5`) so that the number itself is what gets refused.
 */
function joinDashValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const next = argv[i + 1];
    if ((arg === '--wait' || arg === '--as') && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Deckhand's sentence for a `parseArgs` error (its `code` says which mistake it was). */
function explain(error: unknown): string {
  const { code, message = '' } = error as { code?: string; message?: string };
  const option = (/'(-[^' <=]*)/.exec(message)?.[1] ?? '?').slice(0, 60);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `Unknown option "${option}".`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return message.includes('does not take')
      ? `Option "${option}" takes no value.`
      : `Option "${option}" needs a value${VALUE_EXAMPLES[option] ? ` (e.g. ${VALUE_EXAMPLES[option]})` : ''}.`;
  }
  return 'Could not read the command line.';
}

/** Parses `argv` (without node and the script). */
export function parseCommandLine(argv: string[]): Parsed {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(joinDashValues(argv));
  } catch (error) {
    return { kind: 'error', message: explain(error) };
  }
  const { values, positionals } = parsed;
  if (values.help) return positionals[0] === 'doctor' ? { kind: 'help', topic: 'doctor' } : { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const command = positionals[0] ?? 'start';
  if (command === 'help') return { kind: 'help' };
  if (!(COMMANDS as readonly string[]).includes(command)) {
    return { kind: 'error', message: `Unknown command "${command}".` };
  }
  const waitSeconds = Number(values.wait);
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0) {
    return { kind: 'error', message: `--wait must be a number of seconds, 0 or more, got "${values.wait}".` };
  }
  if (values.as !== undefined && !USER_NAME.test(values.as)) {
    return {
      kind: 'error',
      message: `--as needs a user name (letters, digits, . _ @ -), got "${values.as.slice(0, 40)}".`,
    };
  }
  const role = values.role;
  if (role !== 'web' && role !== 'worker' && role !== 'all') {
    return { kind: 'error', message: `--role must be web, worker or all, got "${role}".` };
  }
  return {
    kind: 'run',
    command: command as Exclude<CommandName, 'help'>,
    rest: positionals.slice(1),
    sandbox: values.sandbox,
    role,
    guild: values.guild,
    waitSeconds,
    script: values.script,
    answers: values.answers,
    as: values.as,
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      sandbox: { type: 'boolean', default: false },
      role: { type: 'string', default: 'all' },
      guild: { type: 'string' },
      wait: { type: 'string', default: '0' },
      script: { type: 'boolean', default: false },
      answers: { type: 'string', multiple: true, default: [] },
      as: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', short: 'v', default: false },
    },
  });
}
