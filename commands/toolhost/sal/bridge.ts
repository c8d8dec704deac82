/**
 * The Server Admin Log bridge: each stored change record of a tool whose SAL is on becomes one
 * stashbot `!log` line (see `line.ts`) queued on the chat link that carries it, under the record's
 * id, so a retried command (a worker that died after storing its record) adds no second line. It runs
 * after the record is stored and is never awaited by the command: a slow or absent link delays
 * nothing, and a failure is logged, never shown as the command's.
 */
import type { Logger } from 'pino';
import type { AdminLogOutbox } from '../../../src/core/admin-log-outbox';
import type { ChangeRecord } from '../../../src/core/change-record';
import { salLine } from './line';
import { type AdminLogService, salIsOn } from './service';

/**
 * Commands that change only Deckhand's own view of a tool (which conversation follows or is bound
 * to it, a log tail, the SAL setting itself): not changes to the tool, so not in its SAL.
 */
const NOT_TOOL_CHANGES = new Set([
  'tool bind',
  'tool unbind',
  'subscribe',
  'unsubscribe',
  'tail stop',
  'tool sal',
]);

/** What the bridge needs. */
export interface SalBridgeDeps {
  service: AdminLogService;
  /** The chat link's outbox, once a link that carries SAL lines is attached in this process. */
  outbox(): AdminLogOutbox | undefined;
  /** Keeps the record for the page its line links to. */
  keep(record: ChangeRecord): Promise<void>;
  /** The address of the page of change `id`. */
  link(id: string): string;
  logger: Pick<Logger, 'warn' | 'error'>;
}

/** Why a record gets no line (for logs and tests, never shown), or undefined when it gets one. */
async function skipReason(deps: SalBridgeDeps, record: ChangeRecord): Promise<string | undefined> {
  if (record.outcome !== 'ok') return 'not a change made';
  if (!record.tool) return 'no tool';
  if (NOT_TOOL_CHANGES.has(record.command)) return 'not a change to the tool';
  if (!(await salIsOn(deps.service, record.tool))) return 'SAL off for the tool';
  return undefined;
}

/** Queues the SAL line of `record` when it gets one; resolves with the line queued. */
export async function logChange(deps: SalBridgeDeps, record: ChangeRecord): Promise<string | undefined> {
  const outbox = deps.outbox();
  if (!outbox) {
    // Without a link nothing is read (no Redis request per change on a deployment without a SAL link);
    // the warning is for a deployment that asked for every tool's changes to be logged.
    if (deps.service.defaultOn && record.outcome === 'ok' && record.tool)
      deps.logger.warn(
        { tool: record.tool, change: record.id },
        'SAL line not sent: no chat link for the SAL channel is attached in this process',
      );
    return undefined;
  }
  if ((await skipReason(deps, record)) !== undefined) return undefined;
  const line = salLine(record, deps.service.channel, deps.link(record.id));
  if (!line) return undefined;
  await deps.keep(record);
  await outbox.enqueue(deps.service.channel, line, record.id);
  return line;
}

/** The hook the audit trail calls with each stored record: starts {@link logChange}, never waits for it. */
export function salBridge(deps: SalBridgeDeps): (record: ChangeRecord) => void {
  return (record) => {
    logChange(deps, record).catch((error: unknown) =>
      deps.logger.error({ err: error, tool: record.tool, change: record.id }, 'SAL line could not be queued'),
    );
  };
}
