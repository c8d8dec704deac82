/**
 * What the literal scan reads: the product's code, less the operator's words. What `deckhand doctor`,
 * `deckhand status`, `deckhand register`, the configuration, the start-up and key-rotation messages
 * and Slack's app manifest say is for the person who runs Deckhand and stays English, like docs/;
 * everything a chat reader meets is in the catalogs. The service emulators (`packages/`) speak for the
 * services, not for Deckhand. Command names (`tool claim`) are the command language, English everywhere.
 */

import { ALL_COMMANDS } from '../../commands';
import type { Literal } from './literal-scan';

/** The folders the scan reads. */
export const SCANNED = ['adapters', 'commands', 'src'] as const;

/** Operator paths: a folder (every file under it) or a file; `*` stands for one platform's folder. */
const OPERATOR_PATHS = [
  'adapters/*/checks.ts',
  'adapters/*/doctor.ts',
  'adapters/*/env.ts',
  'adapters/discord/register.ts',
  'adapters/api-metrics.ts',
  'adapters/doctor-kit.ts',
  'adapters/doctor-probe.ts',
  'adapters/slack/manifest.ts',
  'adapters/slack/settings.ts',
  'src/cli/args.ts',
  'src/cli/doctor',
  'src/cli/doctor.ts',
  'src/cli/lifecycle.ts',
  'src/cli/manifest.ts',
  'src/cli/start.ts',
  'src/config-docs.ts',
  'src/config-schema.ts',
  'src/config-unfurls.ts',
  'src/config.ts',
  'src/log.ts',
  'src/main.ts',
  'src/metrics.ts',
  'src/store/key-layout.ts',
  'src/store/key-migration.ts',
  'src/store/redis.ts',
  'src/store/reseal.ts',
  'src/store/sealer.ts',
  'src/store/redis-topology.ts',
  'src/system-packages.ts',
  'src/web/metrics-endpoint.ts',
  'src/wiring/platforms.ts',
  'src/wiring/redis-doctor.ts',
  'src/wiring/redis-preflight.ts',
  'src/wiring/doctor-kit.ts',
  'src/wiring/sandbox-child.ts',
  'src/wiring/sandbox-notes.ts',
  'src/wiring/sandbox-standalone.ts',
  'src/wiring/serve.ts',
  'src/wiring/status.ts',
] as const;

const OPERATOR = OPERATOR_PATHS.map(
  (path) => new RegExp(`^${path.replace(/[.]/g, '\\.').replace('*', '[^/]+')}(?:/|$)`),
);

/** True for a file whose words are the operator's (see above). */
export function operatorPath(file: string): boolean {
  return OPERATOR.some((pattern) => pattern.test(file));
}

/** Paths whose words are records in English for everyone, not messages to a reader, and why. */
const RECORD_PATHS: Readonly<Record<string, string>> = {
  'commands/toolhost/sal/line.ts':
    "the Server Admin Log line: a public record on Wikitech, in the format stashbot reads, in the community's language",
};

/** Literals that read as words but that nobody reads, and why. */
const NOT_READ: Readonly<Record<string, string>> = {
  'text/plain; charset=utf-8': "an attachment's media type (Discord)",
  'not running': "an HTTP answer to Discord's servers",
  'body too large': "an HTTP answer to a platform's servers",
  'invalid request signature': "an HTTP answer to Discord's servers",
  'stale request timestamp': "an HTTP answer to Discord's servers",
  'invalid JSON': "an HTTP answer to Discord's servers",
  'duplicate interaction': "an HTTP answer to Discord's servers",
  'no answer': "an HTTP answer to Discord's servers",
  'secret token is wrong': "an HTTP answer to Telegram's servers",
  'not a Telegram update': "an HTTP answer to Telegram's servers",
  'bad signature': "an HTTP answer to the source host's webhook",
  'body is not JSON': "an HTTP answer to the source host's webhook",
  'not a repository_import payload': "an HTTP answer to the source host's webhook",
  'not ready': "/readyz's answer to a load balancer",
  'network error': 'a /readyz reason for the operator',
  'DejaVu Sans': "a font's name",
  'secret index v1': 'a key-derivation label',
  'Deckhand chat-ops bot': "the bot's IRC real name, a fixed identity",
  'socket close': "a reason of the IRC client library's events, compared, never shown",
  'sasl failed': 'a reason the IRC link logs',
  'nick in use': 'a reason the IRC link logs',
  'queue job run': 'a log line',
  'Not found': "the media host's own file status word, shown as the service says it",
  '/usr/bin/webservice-runner --type $ --port $PORT': "the tool platform's runner command line",
  'Deckhand stopping': "the bot's IRC quit line, part of its identity like its real name",
  '!log tools.$ …': "stashbot's command, quoted as the Server Admin Log reads it",
  'not a change made': 'why the SAL bridge skipped a change, for its log',
  'no tool': 'why the SAL bridge skipped a change, for its log',
  'not a change to the tool': 'why the SAL bridge skipped a change, for its log',
  'SAL off for the tool': 'why the SAL bridge skipped a change, for its log',
  'forget the sandbox notes': "a shutdown step's name, for the log",
  'close the web server': "a shutdown step's name, for the log",
  'close the app': "a shutdown step's name, for the log",
  'should be': "rewording a service's own English message, which stays English",
  'no starter': 'why a personal message was not sent, for the log',
  'no deliver queue': 'why a personal message was not sent, for the log',
  'remote upload': "a poll loop's name, for the log",
  "the answer's body reports status $": "a developer's error, retried or rebuilt, never shown",
  'chat platform': "the service an upload came from, named for the log (the reader gets the catalog's words)",
  'the answer could not be read': "a tool platform health line, beside the platform's own English ones",
  'time zone': "a log line's list of moved state",
  'not found': 'a bare HTTP status body',
  'internal error': 'a bare HTTP status body',
  'STARTED (UTC)': "a column head, as the tool platform's CLI writes it",
  'SHORT NAME': "a column head, as the tool platform's CLI writes it",
  'REF NOW': "a column head, as the tool platform's CLI writes it",
  'Registered the commands of @$: $.': "`deckhand register telegram`'s output for the operator",
  'Generated from the command registry by `deckhand manifest telegram`; registered with `deckhand register telegram`. Do not edit.':
    "the generated file's comment",
};

/** Every command's name (`tool claim`): the command language. */
const COMMAND_NAMES: ReadonlySet<string> = new Set(ALL_COMMANDS.map((command) => command.name));

/** True for a literal a chat reader could meet: outside the operator and record paths, {@link NOT_READ} and command names. */
export function readByPeople(literal: Literal): boolean {
  return (
    !operatorPath(literal.file) &&
    !(literal.file in RECORD_PATHS) &&
    !(literal.text in NOT_READ) &&
    !COMMAND_NAMES.has(literal.text)
  );
}
